import { StrataError } from '@strata-memory/core/store';
import type { SqlClient, SqlQueryable, TransactionOptions } from '../client/sql-client.ts';
import { quoteIdent } from './identifiers.ts';
import { MIGRATIONS, SCHEMA_VERSION, type SchemaNames } from './migrations.ts';

/**
 * Key of the transaction-level advisory lock every Strata migration takes ("STRATA" in ASCII).
 * One key for all schemas, because `CREATE EXTENSION IF NOT EXISTS` (vector, btree_gin) is
 * database-wide and races with itself. Transaction-level, so it is released at COMMIT and works through PgBouncer in
 * transaction mode (a session lock would stay with whichever client the server connection
 * happens to serve next).
 */
export const MIGRATION_LOCK_KEY = 0x535452415441n;

/** A migration may copy or index whole tables: the pool's client-side query timeout does not apply. */
const MIGRATION_TRANSACTION: TransactionOptions = { untimed: true };

export interface MigrationResult {
  names: SchemaNames;
  /** The schema version now in the database. */
  version: number;
  /** Versions this call applied (empty when another instance, or an earlier run, did). */
  applied: number[];
}

async function currentVersion(db: SqlQueryable, schema: string): Promise<number | undefined> {
  const table = `${quoteIdent(schema)}.schema_migrations`;
  const exists = await db.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [table]);
  if (!exists.rows[0]?.found) return undefined;
  const result = await db.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${table}`);
  return result.rows[0]?.version ?? 0;
}

async function vectorSchema(db: SqlQueryable): Promise<string | undefined> {
  const result = await db.query<{ name: string }>(
    `SELECT quote_ident(n.nspname) AS name
       FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
      WHERE e.extname = 'vector'`,
  );
  return result.rows[0]?.name;
}

function tooNew(schema: string, version: number): StrataError {
  return new StrataError({
    code: 'schema_version',
    message: `Schema "${schema}" is at version ${version}, newer than this driver knows (${SCHEMA_VERSION}). Upgrade @strata-memory/store-postgres.`,
    details: { schema, version, known: SCHEMA_VERSION },
  });
}

/**
 * Brings `schema` to the newest version (or to `upTo`: tests build an older schema with it, to
 * migrate data written in its layout). Safe to call from many processes at once: the first
 * takes the advisory lock and migrates inside one transaction; the others wait on the lock, then
 * find nothing left to do. An up-to-date schema is checked without taking the lock.
 */
export async function migrateSchema(
  client: SqlClient,
  schema: string,
  { upTo = SCHEMA_VERSION }: { upTo?: number } = {},
): Promise<MigrationResult> {
  const seen = await currentVersion(client, schema);
  if (seen !== undefined && seen > SCHEMA_VERSION) throw tooNew(schema, seen);
  if (seen === upTo) {
    const vector = await vectorSchema(client);
    if (vector) return { names: { schema: quoteIdent(schema), vector }, version: seen, applied: [] };
  }
  return client.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY.toString()]);
    await tx.query('CREATE EXTENSION IF NOT EXISTS vector');
    // GIN indexes led by tenant_id (a btree column) need btree_gin's operator classes.
    await tx.query('CREATE EXTENSION IF NOT EXISTS btree_gin');
    const vector = await vectorSchema(tx);
    if (!vector)
      throw new StrataError({ code: 'store_failure', message: 'the pgvector extension is missing' });
    const names: SchemaNames = { schema: quoteIdent(schema), vector };
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${names.schema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${names.schema}.schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const version = (await currentVersion(tx, schema)) ?? 0;
    if (version > SCHEMA_VERSION) throw tooNew(schema, version);
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (migration.version <= version || migration.version > upTo) continue;
      for (const statement of migration.statements(names)) await tx.query(statement);
      await tx.query(`INSERT INTO ${names.schema}.schema_migrations (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    return { names, version: Math.max(version, upTo), applied };
  }, MIGRATION_TRANSACTION);
}
