#!/usr/bin/env bash
# Makes the local PostgreSQL 15 server ready for the integration tests: the server running on
# 127.0.0.1:5432, the `test` database present, and pgvector installed and enabled in it.
#
# pgvector is not packaged for Debian bookworm, so it is built from Debian's (trixie) source
# package (about 5 seconds of compiling). Idempotent: when the extension is already installed it
# only checks the server and the database, and exits in well under a second. Needs root
# (apt-get, make install). Run by .ci/run before the tests.
set -euo pipefail

PG_MAJOR=${PG_MAJOR:-15}
PG_CLUSTER=${PG_CLUSTER:-main}
PG_DATABASE=${PG_DATABASE:-test}
SRC_LIST=/etc/apt/sources.list.d/strata-pgvector-src.list
BUILD_DIR=${PGVECTOR_BUILD_DIR:-/usr/local/src/strata-pgvector}

log() { printf 'setup-postgres: %s\n' "$*"; }
psql_admin() { PGOPTIONS='-c client_min_messages=warning' psql -X -q -v ON_ERROR_STOP=1 -U postgres -h 127.0.0.1 -p 5432 "$@"; }

# 1. The server is running.
if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  log "starting PostgreSQL $PG_MAJOR/$PG_CLUSTER"
  pg_ctlcluster --skip-systemctl-redirect "$PG_MAJOR" "$PG_CLUSTER" start
  for _ in $(seq 1 30); do
    pg_isready -q -h 127.0.0.1 -p 5432 && break
    sleep 1
  done
  pg_isready -q -h 127.0.0.1 -p 5432 || { log "the server did not come up"; exit 1; }
fi

# 2. pgvector is installed for this major version.
if [ ! -f "/usr/share/postgresql/$PG_MAJOR/extension/vector.control" ]; then
  log "building pgvector from Debian's source package"
  if [ ! -f "$SRC_LIST" ]; then
    echo 'deb-src http://deb.debian.org/debian trixie main' >"$SRC_LIST"
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "postgresql-server-dev-$PG_MAJOR" build-essential dpkg-dev >/dev/null
  rm -rf "$BUILD_DIR"
  mkdir -p "$BUILD_DIR"
  # apt downloads as its own _apt user when it can write the folder.
  if id _apt >/dev/null 2>&1; then chown _apt "$BUILD_DIR"; fi
  (
    cd "$BUILD_DIR"
    apt-get source -qq pgvector >/dev/null
    cd "$(find . -maxdepth 1 -mindepth 1 -type d -name 'pgvector-*' | head -n 1)"
    # OPTFLAGS="": no -march=native, so the library also runs on another CPU of the same
    # architecture (pgvector picks its SIMD distance code at run time).
    make -s PG_CONFIG="/usr/lib/postgresql/$PG_MAJOR/bin/pg_config" OPTFLAGS="" >/dev/null
    make -s PG_CONFIG="/usr/lib/postgresql/$PG_MAJOR/bin/pg_config" install >/dev/null
  )
  log "pgvector installed"
fi

# 3. The database exists and has the extensions (the store also creates them when it migrates).
if ! psql_admin -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$PG_DATABASE'" | grep -q 1; then
  log "creating database $PG_DATABASE"
  psql_admin -d postgres -c "CREATE DATABASE \"$PG_DATABASE\""
fi
psql_admin -d "$PG_DATABASE" -c 'CREATE EXTENSION IF NOT EXISTS vector' -c 'CREATE EXTENSION IF NOT EXISTS btree_gin'
log "ready: $(psql_admin -d "$PG_DATABASE" -tAc "SELECT 'PostgreSQL ' || current_setting('server_version') || ', pgvector ' || extversion FROM pg_extension WHERE extname = 'vector'")"
