import { randomBytes } from 'node:crypto';
import { access, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStore, type Store } from '@strata-memory/core';

export const STORE_KINDS = ['memory', 'sqlite', 'postgres'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** With it set, `postgres` runs against that server (in a schema of its own) instead of PGlite. */
export const PG_URL_VARIABLE = 'STRATA_PG_URL';

/** A fresh store for one benchmark unit, with what it takes to measure and remove it. */
export interface BenchStore {
  readonly kind: StoreKind;
  /** Where the data lives, for the report: `in-process`, `sqlite file`, `PGlite`, `server`. */
  readonly backend: string;
  /** Its `close` may be called more than once (the engine's `close` closes it too). */
  readonly store: Store;
  /** Bytes the data occupies on disk, or undefined when that is not measurable here. */
  diskBytes(): Promise<number | undefined>;
  /** Closes the store and deletes its data. */
  close(): Promise<void>;
}

/** Whether `path` exists. */
async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * A SQLite store in `file`, kept when closed so later runs can measure the same data without
 * loading it again. `observed` counts the messages it held when opened (0 for a new file).
 */
export async function openKeptSqliteStore(file: string): Promise<BenchStore & { observed: number }> {
  const isNew = !(await exists(file));
  const { sqliteStore } = await import('@strata-memory/store-sqlite');
  const store = closingOnce(sqliteStore({ path: file }));
  let observed = 0;
  if (!isNew) {
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      observed = (db.prepare('SELECT count(*) AS n FROM messages').get() as { n: number }).n;
    } finally {
      db.close();
    }
  }
  return {
    kind: 'sqlite',
    backend: 'sqlite file',
    store,
    observed,
    diskBytes: async () => {
      let total = 0;
      for (const suffix of ['', '-wal', '-shm']) {
        if (await exists(file + suffix)) total += (await stat(file + suffix)).size;
      }
      return total;
    },
    close: () => store.close(),
  };
}

/** Bytes of every file under `dir`. */
export async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

function closingOnce(store: Store): Store {
  let closed: Promise<void> | undefined;
  return {
    ...store,
    transaction: (fn) => store.transaction(fn),
    forget: (args) => store.forget(args),
    close: () => {
      closed ??= store.close();
      return closed;
    },
  };
}

/**
 * Opens an empty store of `kind`: `memory` in the process; `sqlite` as a file in a temporary
 * directory; `postgres` as PGlite (PostgreSQL in WebAssembly, in the process) in a temporary
 * directory, or, when `STRATA_PG_URL` is set, in a new schema on that server. `close` removes the
 * directory or drops the schema.
 */
export async function openBenchStore(kind: StoreKind): Promise<BenchStore> {
  if (kind === 'memory') {
    const store = closingOnce(memoryStore());
    return {
      kind,
      backend: 'in-process',
      store,
      diskBytes: async () => undefined,
      close: () => store.close(),
    };
  }
  const url = process.env[PG_URL_VARIABLE];
  if (kind === 'postgres' && url) return openServerSchema(url);

  const dir = await mkdtemp(join(tmpdir(), `strata-bench-${kind}-`));
  try {
    const store = closingOnce(await openInDirectory(kind, dir));
    return {
      kind,
      backend: kind === 'sqlite' ? 'sqlite file' : 'PGlite',
      store,
      diskBytes: () => directoryBytes(dir),
      async close() {
        try {
          await store.close();
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function openInDirectory(kind: 'sqlite' | 'postgres', dir: string): Promise<Store> {
  if (kind === 'sqlite') {
    const { sqliteStore } = await import('@strata-memory/store-sqlite');
    return sqliteStore({ path: join(dir, 'strata.db') });
  }
  const { pgliteStore } = await import('@strata-memory/store-postgres/pglite');
  return pgliteStore({ dataDir: join(dir, 'pgdata') });
}

async function openServerSchema(connectionString: string): Promise<BenchStore> {
  const [{ postgresStore }, { default: pg }] = await Promise.all([
    import('@strata-memory/store-postgres'),
    import('pg'),
  ]);
  const schema = `strata_bench_${randomBytes(6).toString('hex')}`;
  const store = closingOnce(postgresStore({ connectionString, schema, poolSize: 4 }));
  const admin = async <T>(fn: (client: InstanceType<typeof pg.Client>) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.end();
    }
  };
  return {
    kind: 'postgres',
    backend: 'server',
    store,
    diskBytes: () => schemaBytes(connectionString, schema),
    async close() {
      try {
        await store.close();
      } finally {
        await admin((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
      }
    },
  };
}

/** Bytes of every table and materialised view in `schema` (with their indexes and TOAST) on the server. */
export async function schemaBytes(connectionString: string, schema: string): Promise<number> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const result = await client.query<{ bytes: string }>(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::text AS bytes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`,
      [schema],
    );
    return Number(result.rows[0]?.bytes ?? 0);
  } finally {
    await client.end();
  }
}
