import {
  defineStore,
  parseArgs,
  type Store,
  type StoreCapabilities,
  type StoreDriver,
  type StoreDriverTransaction,
} from '@strata-memory/core/store';
import { z } from 'zod/v4';
import { auditDriver } from './audit/audit-driver.ts';
import { databaseSize } from './database/database-size.ts';
import { mapSqliteError } from './database/native-errors.ts';
import { analyseIfNeeded, isMemoryPath, openDatabase } from './database/open-database.ts';
import { type Runner, Session } from './database/session.ts';
import { Statements } from './database/statements.ts';
import { episodeDriver } from './episodes/episode-driver.ts';
import { TermStatistics } from './episodes/term-statistics.ts';
import { VectorIndex } from './episodes/vector-index.ts';
import { factDriver } from './facts/fact-driver.ts';
import { forgetSubtree } from './forget/forget-subtree.ts';
import { graphDriver } from './graph/graph-driver.ts';
import { reviewDriver } from './review/review-driver.ts';
import { MIGRATIONS, migrate, readSchemaVersion, SCHEMA_VERSION } from './schema/migrations.ts';
import { scopeDriver } from './scopes/scope-driver.ts';
import { ledgerDriver } from './state/ledger-driver.ts';
import { stateDriver } from './state/state-driver.ts';
import { threadDriver } from './threads/thread-driver.ts';

export const DEFAULT_PATH = '.strata/memory.db';

/**
 * Vector searches over at most this many vectors are exact. sqlite-vec compares float vectors at
 * about 1.3 µs each for 384 dimensions, sign bits at a small fraction of that: past about a
 * thousand vectors the sign-bit pass plus exact re-ranking is the faster of the two.
 */
export const DEFAULT_EXACT_VECTOR_LIMIT = 1_000;

/** How long one attempt waits inside SQLite's (blocking) busy handler before yielding and retrying. */
const BUSY_SLICE_MS = 25;

export interface SqliteStoreOptions {
  /** Database file; its folder is created. `':memory:'` keeps everything in memory. Default `.strata/memory.db`. */
  path?: string;
  /** Shown in errors and `store.name`. Default `sqlite`. */
  name?: string;
  /** How long a write waits for another process's lock before failing with `store_unavailable`. Default 5000. */
  busyTimeoutMs?: number;
  /** `normal` (default) survives a crashed process; `full` also survives power loss, at some write speed. */
  synchronous?: 'normal' | 'full';
  /** SQLite page cache in MiB. Default 64. */
  cacheSizeMb?: number;
  /** Vectors per sqlite-vec chunk, for vector tables created from now on (a multiple of 8). Default 64. */
  vectorChunkSize?: number;
  /**
   * Vector search is exact when the scopes the reader may see hold up to this many vectors of the
   * query's size. Past it, the search first ranks sign-bit codes (much cheaper) for
   * `vectorOversampling` times the rows asked for, then re-ranks those by exact cosine:
   * approximate, like an ANN index. Default 1000; `Number.MAX_SAFE_INTEGER` keeps every search exact.
   */
  exactVectorLimit?: number;
  /** Candidates the coarse pass gathers per row asked for. Default 8. */
  vectorOversampling?: number;
}

const optionsSchema = z
  .object({
    path: z.string().max(4096).optional(),
    name: z.string().min(1).max(128).optional(),
    busyTimeoutMs: z.number().int().min(0).max(600_000).optional(),
    synchronous: z.enum(['normal', 'full']).optional(),
    cacheSizeMb: z.number().int().min(1).max(65_536).optional(),
    vectorChunkSize: z
      .number()
      .int()
      .min(8)
      .max(8192)
      .refine((n) => n % 8 === 0, 'must be a multiple of 8')
      .optional(),
    exactVectorLimit: z.number().int().min(0).optional(),
    vectorOversampling: z.number().int().min(1).max(64).optional(),
  })
  .strict();

function subStores(
  sql: Statements,
  run: Runner,
  vectors: VectorIndex,
  terms: TermStatistics,
): StoreDriverTransaction {
  return {
    threads: threadDriver(sql, run),
    episodes: episodeDriver(sql, run, vectors, terms),
    facts: factDriver(sql, run),
    graph: graphDriver(sql, run),
    state: stateDriver(sql, run),
    ledger: ledgerDriver(sql, run),
    review: reviewDriver(sql, run),
    audit: auditDriver(sql, run),
    scopes: scopeDriver(sql, run),
  };
}

/**
 * The embedded default store: one SQLite file (WAL mode, foreign keys on) through Node's built-in
 * `node:sqlite`, FTS5 with BM25 for keyword search, sqlite-vec for vector search and recursive
 * CTEs for graph traversal. Opening applies any pending schema migrations.
 *
 * ```ts
 * const store = sqliteStore();                        // .strata/memory.db
 * const test = sqliteStore({ path: ':memory:' });
 * ```
 */
export function sqliteStore(options: SqliteStoreOptions = {}): Store {
  const parsed = parseArgs(optionsSchema, options, 'sqliteStore: options');
  const path = parsed.path ?? DEFAULT_PATH;
  const busyTimeoutMs = parsed.busyTimeoutMs ?? 5000;
  const db = openDatabase({
    path,
    busyTimeoutMs,
    synchronous: parsed.synchronous ?? 'normal',
    cacheSizeMb: parsed.cacheSizeMb ?? 64,
  });
  let applied: number[];
  try {
    const before = readSchemaVersion(db);
    const after = migrate(db);
    applied = MIGRATIONS.map((m) => m.version).filter((v) => v > before && v <= after);
  } catch (error) {
    db.close();
    // Another process may hold the write lock past the busy timeout while it migrates or writes.
    throw mapSqliteError(error) ?? error;
  }

  // Opening and migrating were synchronous and waited in SQLite's busy handler. From here on a
  // call waits there only briefly, then retries after yielding to the event loop (see Session),
  // so a long-held lock in another process never blocks this process's other work.
  db.exec(`PRAGMA busy_timeout = ${Math.min(busyTimeoutMs, BUSY_SLICE_MS)}`);
  analyseIfNeeded(db);
  const session = new Session(db, { busyTimeoutMs });
  const sql = new Statements(db);
  const vectors = new VectorIndex(sql, {
    chunkSize: parsed.vectorChunkSize ?? 64,
    exactLimit: parsed.exactVectorLimit ?? DEFAULT_EXACT_VECTOR_LIMIT,
    oversampling: parsed.vectorOversampling ?? 8,
  });
  session.onRollback(() => vectors.forgetCachedTables());
  const terms = new TermStatistics(sql);
  const persistent = !isMemoryPath(path);
  const capabilities: StoreCapabilities = {
    keywordSearch: true,
    vectorSearch: true,
    keywordRanking: 'bm25',
    transactions: true,
    multiProcess: persistent,
    persistent,
  };

  const driver: StoreDriver = {
    name: parsed.name ?? 'sqlite',
    capabilities,
    ...subStores(sql, session.outer, vectors, terms),
    transaction: (fn) => session.transaction((runner) => fn(subStores(sql, runner, vectors, terms))),
    forget: async ({ scope }) => {
      const counts = await session.outer.write(() => forgetSubtree(sql, vectors, scope));
      // The erased rows' pages were zeroed (secure_delete), but their earlier versions are still
      // frames in the WAL until a checkpoint: empty it now.
      if (persistent) await session.truncateWal();
      return counts;
    },
    close: async () => {
      await session.close();
      terms.close();
    },
    mapError: mapSqliteError,
    size: () => session.outer.read(() => databaseSize(sql, path)),
    // Opening migrated the file: report what that did and the version it is at now.
    migrate: () =>
      session.outer.read(() => ({ version: readSchemaVersion(db), latest: SCHEMA_VERSION, applied })),
  };
  return defineStore(driver);
}
