import { invalidInput, parseArgs, type Store, StrataError } from '@strata-memory/core/store';
import pg from 'pg';
import { z } from 'zod/v4';
import { poolClient } from './client/pool-client.ts';
import type { SqlClient } from './client/sql-client.ts';
import { mapPostgresError } from './errors/map-error.ts';
import { checkSchemaName } from './schema/identifiers.ts';
import { type MigrationResult, migrateSchema } from './schema/migrate.ts';
import { storeOverClient } from './store-over-client.ts';
import { resolveTuning, type StoreTuning, tuningShape } from './store-tuning.ts';

export interface PostgresStoreOptions extends StoreTuning {
  /** `postgres://user:password@host:5432/database`. The store creates and owns a `pg.Pool`. */
  connectionString?: string;
  /** A pool you own (the store never ends it). Add a `pool.on('error', …)` listener. */
  pool?: pg.Pool;
  /** Any `SqlClient`, e.g. `pgliteClient(...)` for an embedded database. */
  client?: SqlClient;
  /**
   * A read replica (connection string or pool): calls that only read, made outside a
   * transaction (searches, listings, gets, traversals), go there; writes, transactions and
   * migrations go to the primary. Replicas lag: a read right after a write may miss it.
   */
  readReplica?: string | pg.Pool;
  /** Connections in each pool the store creates. Default 10. */
  poolSize?: number;
  /** How long a call waits for a new connection before failing with `store_unavailable`. Default 5000 ms. */
  connectionTimeoutMs?: number;
  /**
   * How long a statement waits for the server's answer, on the pools the store creates, before the
   * call fails with a retryable `store_unavailable` and the connection is discarded: a server that
   * stops answering mid-call cannot hold a call for the length of the outage. Default 30000 ms;
   * 0 for no limit. Schema migrations are exempt.
   */
  queryTimeoutMs?: number;
  /**
   * Idle time before TCP keepalive probes start on the store's connections, so connections to a
   * server that went away are found dead and replaced. Default 10000 ms.
   */
  keepAliveInitialDelayMs?: number;
  /**
   * Server-side `statement_timeout` for the pool the store creates (not supported behind
   * PgBouncer): the server itself cancels a statement running longer (`store_unavailable`).
   */
  statementTimeoutMs?: number;
  /**
   * Run recurring statements as named prepared statements on the store's pools (the server then
   * parses a search once per connection, not on every call, and plans it once where its plan does
   * not depend on the values). Default true. Behind PgBouncer in transaction mode, 1.21 or later
   * needs `max_prepared_statements` set; pass false for an older pooler (the store also turns it
   * off by itself when the server's answers show one).
   */
  prepareStatements?: boolean;
}

const optionsSchema = z
  .object({
    ...tuningShape,
    connectionString: z.string().min(1).optional(),
    pool: z
      .custom<pg.Pool>((value) => value instanceof pg.Pool || isPoolLike(value), 'must be a pg.Pool')
      .optional(),
    client: z
      .custom<SqlClient>((value) => isSqlClient(value), 'must have query, transaction and close methods')
      .optional(),
    readReplica: z
      .union([
        z.string().min(1),
        z.custom<pg.Pool>((value) => value instanceof pg.Pool || isPoolLike(value), 'must be a pg.Pool'),
      ])
      .optional(),
    poolSize: z.number().int().min(1).max(1000).optional(),
    connectionTimeoutMs: z.number().int().min(1).max(600_000).optional(),
    queryTimeoutMs: z.number().int().min(0).max(2_147_483_647).optional(),
    keepAliveInitialDelayMs: z.number().int().min(0).max(2_147_483_647).optional(),
    statementTimeoutMs: z.number().int().min(1).optional(),
    prepareStatements: z.boolean().optional(),
  })
  .strict();

function isPoolLike(value: unknown): boolean {
  const candidate = value as { query?: unknown; connect?: unknown; end?: unknown } | null;
  return (
    typeof candidate?.query === 'function' &&
    typeof candidate.connect === 'function' &&
    typeof candidate.end === 'function'
  );
}

function isSqlClient(value: unknown): value is SqlClient {
  const candidate = value as Partial<SqlClient> | null;
  return (
    typeof candidate?.query === 'function' &&
    typeof candidate.transaction === 'function' &&
    typeof candidate.close === 'function'
  );
}

type ParsedOptions = z.output<typeof optionsSchema>;

/** Defaults of the pools the store creates. */
const POOL_DEFAULTS = {
  connectionTimeoutMs: 5_000,
  queryTimeoutMs: 30_000,
  keepAliveInitialDelayMs: 10_000,
} as const;

function ownPool(connectionString: string, options: ParsedOptions): SqlClient {
  const queryTimeoutMs = options.queryTimeoutMs ?? POOL_DEFAULTS.queryTimeoutMs;
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? POOL_DEFAULTS.connectionTimeoutMs,
    idleTimeoutMillis: 30_000,
    ...(queryTimeoutMs === 0 ? {} : { query_timeout: queryTimeoutMs }),
    keepAlive: true,
    keepAliveInitialDelayMillis: options.keepAliveInitialDelayMs ?? POOL_DEFAULTS.keepAliveInitialDelayMs,
    ...(options.statementTimeoutMs === undefined ? {} : { statement_timeout: options.statementTimeoutMs }),
  });
  // An idle connection the server drops emits 'error' on the pool; the pool discards it and the
  // next call opens a fresh one. Without a listener, Node would end the process.
  pool.on('error', () => undefined);
  return poolClient(pool, { ownsPool: true, prepareStatements: options.prepareStatements });
}

function openClient(options: ParsedOptions): SqlClient {
  const given = [options.connectionString, options.pool, options.client].filter(
    (v) => v !== undefined,
  ).length;
  if (given !== 1) throw invalidInput('postgresStore: pass exactly one of connectionString, pool or client');
  if (options.client) return options.client;
  if (options.pool) {
    return poolClient(options.pool, { ownsPool: false, prepareStatements: options.prepareStatements });
  }
  return ownPool(options.connectionString!, options);
}

function openReplica(options: ParsedOptions): SqlClient | undefined {
  const replica = options.readReplica;
  if (replica === undefined) return undefined;
  return typeof replica === 'string'
    ? ownPool(replica, options)
    : poolClient(replica, { ownsPool: false, prepareStatements: options.prepareStatements });
}

/**
 * A Strata store on PostgreSQL with pgvector. Returns at once; the schema is created or migrated
 * on the first call (or explicitly with `migratePostgres`). Needs pgvector ≥ 0.8 on the server.
 *
 * ```ts
 * const store = postgresStore({ connectionString: process.env.DATABASE_URL });
 * const memory = createMemory({ store });
 * ```
 */
export function postgresStore(options: PostgresStoreOptions): Store {
  const parsed = parseArgs(optionsSchema, options, 'postgresStore: options');
  const tuning = resolveTuning(parsed, 'postgres');
  const replica = openReplica(parsed);
  return storeOverClient(openClient(parsed), tuning, {
    multiProcess: true,
    persistent: true,
    ...(replica ? { replica } : {}),
  });
}

/**
 * Creates or upgrades the schema now, e.g. in a deploy step, instead of on the first call.
 * Safe to run from several instances at once: one migrates, the others wait and find it done.
 */
export async function migratePostgres(
  options: Pick<PostgresStoreOptions, 'connectionString' | 'pool' | 'client' | 'schema'>,
): Promise<MigrationResult> {
  const parsed = parseArgs(optionsSchema.omit({ readReplica: true }), options, 'migratePostgres: options');
  const schema = checkSchemaName(parsed.schema ?? 'strata');
  const client = openClient(parsed);
  try {
    return await migrateSchema(client, schema);
  } catch (error) {
    if (StrataError.isInstance(error)) throw error;
    throw (
      mapPostgresError(error) ??
      new StrataError({
        code: 'store_failure',
        message: `migrating schema "${schema}" failed: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
      })
    );
  } finally {
    await client.close();
  }
}
