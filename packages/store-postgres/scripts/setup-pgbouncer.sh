#!/usr/bin/env bash
# Starts a PgBouncer in transaction mode on 127.0.0.1:6432 in front of the local server's `test`
# database, for the integration test that runs the store through a pooler (test/pgbouncer.int.test.ts).
# Debian bookworm packages PgBouncer 1.18, which does not keep prepared statements in transaction
# mode: the pooler the store must detect by itself. Its pool holds two server connections, so
# consecutive statements of one client land on different ones. Idempotent: when something already
# listens on the port it only checks that it answers. Needs root (apt-get); PgBouncer itself runs
# as the postgres user. Run by .ci/run after setup-postgres.sh.
set -euo pipefail

PORT=${PGBOUNCER_PORT:-6432}
DIR=${PGBOUNCER_DIR:-/tmp/strata-pgbouncer}

log() { printf 'setup-pgbouncer: %s\n' "$*"; }
answers() { psql -X -q -U postgres -h 127.0.0.1 -p "$PORT" -d test -tAc 'SELECT 1' 2>/dev/null | grep -q 1; }

if answers; then
  log "ready: already listening on $PORT"
  exit 0
fi
if ! command -v pgbouncer >/dev/null; then
  log "installing PgBouncer from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq pgbouncer >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq pgbouncer >/dev/null; }
fi
mkdir -p "$DIR"
cat >"$DIR/pgbouncer.ini" <<INI
[databases]
test = host=127.0.0.1 port=5432 dbname=test user=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $PORT
auth_type = trust
auth_file = $DIR/userlist.txt
pool_mode = transaction
default_pool_size = 2
max_client_conn = 200
logfile = $DIR/pgbouncer.log
pidfile = $DIR/pgbouncer.pid
ignore_startup_parameters = extra_float_digits
INI
echo '"postgres" ""' >"$DIR/userlist.txt"
chown -R postgres "$DIR"
su postgres -s /bin/sh -c "pgbouncer -d '$DIR/pgbouncer.ini'"
for _ in $(seq 1 20); do
  answers && break
  sleep 0.5
done
answers || { log "PgBouncer did not come up (see $DIR/pgbouncer.log)"; exit 1; }
log "ready: $(pgbouncer --version | head -n 1), transaction mode on 127.0.0.1:$PORT"
