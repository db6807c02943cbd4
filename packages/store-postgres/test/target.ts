import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { vector } from '@electric-sql/pglite-pgvector';
import type { Store } from '@strata-memory/core/store';
import pg from 'pg';
import { poolClient } from '../src/client/pool-client.ts';
import type { SqlClient } from '../src/client/sql-client.ts';
import { pgliteClient } from '../src/pglite/pglite-client.ts';
import { pgliteStore } from '../src/pglite/pglite-store.ts';
import { type PostgresStoreOptions, postgresStore } from '../src/postgres-store.ts';
import type { StoreTuning } from '../src/store-tuning.ts';

/**
 * Where the integration tests run: the PostgreSQL server in `STRATA_PG_URL` when it is set (CI
 * sets it and must reach it), otherwise an in-process PGlite database, through the same driver
 * code. Each test uses fresh schemas, dropped at the end.
 */
export interface TestTarget {
  readonly kind: 'postgres' | 'pglite';
  /** The server's connection string (PostgreSQL only). */
  readonly url?: string;
  /** A store in a new schema unique to this run. */
  openStore(options?: StoreTuning & Omit<PostgresStoreOptions, 'pool' | 'client'>): Store;
  /** A fresh schema name, dropped on `close()`. */
  freshSchema(label: string): string;
  /** Direct SQL, for assertions on what is stored. */
  readonly sql: SqlClient;
  close(): Promise<void>;
}

export const PG_URL = process.env.STRATA_PG_URL;

if (process.env.CI && !PG_URL) {
  // CI provisions a real server; silently falling back to PGlite there would hide a broken setup.
  throw new Error('CI is set but STRATA_PG_URL is not: the real-server run must not be skipped in CI');
}

let counter = 0;

export async function openTarget(): Promise<TestTarget> {
  const schemas: string[] = [];
  const stores: Store[] = [];
  const freshSchema = (label: string) => {
    counter += 1;
    const name = `t_${label}_${process.pid}_${counter}_${Math.random().toString(36).slice(2, 8)}`.slice(
      0,
      63,
    );
    schemas.push(name);
    return name;
  };

  if (PG_URL) {
    const admin = new pg.Pool({ connectionString: PG_URL, max: 4 });
    admin.on('error', () => undefined);
    const sql = poolClient(admin, { ownsPool: true });
    return {
      kind: 'postgres',
      url: PG_URL,
      sql,
      freshSchema,
      openStore(options = {}) {
        const store = postgresStore({ connectionString: PG_URL, schema: freshSchema('s'), ...options });
        stores.push(store);
        return store;
      },
      async close() {
        await Promise.allSettled(stores.map((store) => store.close()));
        for (const schema of schemas) await sql.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await sql.close();
      },
    };
  }

  const db = await PGlite.create({ extensions: { vector, btree_gin } });
  const sql = pgliteClient(async () => db, { ownsDatabase: true });
  return {
    kind: 'pglite',
    sql,
    freshSchema,
    openStore(options = {}) {
      const {
        poolSize: _p,
        connectionTimeoutMs: _c,
        statementTimeoutMs: _s,
        queryTimeoutMs: _q,
        keepAliveInitialDelayMs: _k,
        connectionString: _u,
        readReplica: _r,
        ...tuning
      } = options;
      const store = pgliteStore({ pglite: db, schema: freshSchema('s'), ...tuning });
      stores.push(store);
      return store;
    },
    async close() {
      await Promise.allSettled(stores.map((store) => store.close()));
      await sql.close();
    },
  };
}

/**
 * Where the vectors' bookkeeping disagrees with the episodes (none when they are in step): one
 * entry per scope and dimension whose `vector_counts` slots differ from its episodes with
 * embeddings, and one per episode whose row in `episode_vectors` is missing, extra or different.
 */
export async function vectorDrift(sql: SqlClient, schema: string): Promise<string[]> {
  const scope = 'tenant_id, org_id, user_id, agent_id, thread_id, dims';
  const counts = await sql.query<{ scope: string; counted: string | null; stored: string | null }>(
    `SELECT concat_ws('/', ${scope}) AS scope, c.n AS counted, e.n AS stored
       FROM (SELECT ${scope}, sum(episodes) AS n FROM "${schema}".vector_counts GROUP BY ${scope}) c
       FULL JOIN (SELECT ${scope}, count(*) AS n FROM "${schema}".episodes WHERE dims IS NOT NULL GROUP BY ${scope}) e
      USING (tenant_id, org_id, user_id, agent_id, thread_id, dims)
      WHERE COALESCE(c.n, 0) <> COALESCE(e.n, 0)`,
  );
  const copied = `tenant_id, id, org_id, user_id, agent_id, thread_id, dims, status, access_level, occurred_at,
    embedding_f4::text AS embedding`;
  const copies = await sql.query<{ id: string; copy: string | null; episode: string | null }>(
    `SELECT COALESCE(e.id, c.id) AS id, c::text AS copy, e::text AS episode
       FROM (SELECT ${copied} FROM "${schema}".episode_vectors) c
       FULL JOIN (SELECT ${copied} FROM "${schema}".episodes WHERE dims <= 2000) e
         ON e.tenant_id = c.tenant_id AND e.id = c.id
      WHERE c::text IS DISTINCT FROM e::text`,
  );
  return [
    ...counts.rows.map((row) => `${row.scope}: counted ${row.counted ?? 0}, stored ${row.stored ?? 0}`),
    ...copies.rows.map(
      (row) => `${row.id}: vector row ${row.copy ?? 'missing'}, episode ${row.episode ?? 'missing'}`,
    ),
  ];
}
