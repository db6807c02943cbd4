import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { invalidInput, type Store } from '@strata-memory/core';
import { postgresStore } from '@strata-memory/store-postgres';
import { pgliteClient } from '@strata-memory/store-postgres/pglite';
import { sqliteStore } from '@strata-memory/store-sqlite';
import pg from 'pg';

/** The kind of store each eval case gets a fresh, empty one of. */
export type EvalStoreKind = { kind: 'sqlite' } | { kind: 'pglite' } | { kind: 'postgres'; url: string };

/** A store made for one case, and how to remove it once the memory on it is closed. */
export interface FreshStore {
  store: Store;
  /** Deletes the temporary file or schema. */
  dispose(): Promise<void>;
}

/** Makes an empty store per case; `close()` removes what the run shared (a PGlite folder, a pool). */
export interface FreshStores {
  fresh(): Promise<FreshStore>;
  close(): Promise<void>;
}

/**
 * Reads `--store` for `strata eval`: `sqlite` (the default), `pglite`, or a `postgres://` URL. A path
 * to an existing store is refused: an eval never writes into a memory someone uses.
 */
export function parseEvalStore(value: string | undefined): EvalStoreKind {
  const given = (value ?? 'sqlite').trim();
  if (given === 'sqlite' || given === 'sqlite:') return { kind: 'sqlite' };
  if (given === 'pglite' || given === 'pglite:') return { kind: 'pglite' };
  if (/^postgres(ql)?:\/\//i.test(given)) return { kind: 'postgres', url: given };
  throw invalidInput(
    `eval runs every case on a fresh temporary store; --store takes sqlite (default), pglite or a postgres:// URL, not "${given}"`,
    { store: given },
  );
}

/** A printable name of the kind (never a password). */
export function describeEvalStore(kind: EvalStoreKind): string {
  if (kind.kind === 'sqlite') return 'SQLite (temporary file)';
  if (kind.kind === 'pglite') return 'PGlite (temporary folder)';
  const url = new URL(kind.url);
  if (url.password) url.password = '***';
  return `PostgreSQL ${url.toString()} (temporary schema)`;
}

/**
 * Fresh stores of a kind. SQLite: a new file per case in a temporary folder. PostgreSQL: one pool,
 * a new schema per case, dropped afterwards. PGlite: one embedded database in a temporary folder
 * (started once: starting PGlite is the slow part), a new schema per case.
 */
export function freshStores(kind: EvalStoreKind): FreshStores {
  switch (kind.kind) {
    case 'sqlite':
      return {
        fresh: async () => {
          const dir = mkdtempSync(join(tmpdir(), 'strata-eval-'));
          return {
            store: sqliteStore({ path: join(dir, 'memory.db') }),
            dispose: async () => rmSync(dir, { recursive: true, force: true }),
          };
        },
        close: async () => {},
      };
    case 'postgres': {
      const pool = new pg.Pool({ connectionString: kind.url, max: 4 });
      pool.on('error', () => {});
      return {
        fresh: async () => {
          const schema = newSchemaName();
          return {
            store: postgresStore({ pool, schema }),
            dispose: async () => {
              await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
            },
          };
        },
        close: () => pool.end(),
      };
    }
    case 'pglite': {
      const dir = mkdtempSync(join(tmpdir(), 'strata-eval-pg-'));
      let database: Promise<PGlite> | undefined;
      const open = () => {
        database ??= openPglite(dir);
        return database;
      };
      return {
        fresh: async () => {
          const schema = newSchemaName();
          return {
            store: postgresStore({ client: pgliteClient(open, { ownsDatabase: false }), schema }),
            dispose: async () => {
              await (await open()).query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
            },
          };
        },
        close: async () => {
          try {
            if (database) await (await database).close();
          } finally {
            rmSync(dir, { recursive: true, force: true });
          }
        },
      };
    }
  }
}

function newSchemaName(): string {
  return `strata_eval_${randomBytes(6).toString('hex')}`;
}

async function openPglite(dataDir: string): Promise<PGlite> {
  const [{ PGlite }, { vector }, { btree_gin }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-pgvector'),
    import('@electric-sql/pglite/contrib/btree_gin'),
  ]);
  return PGlite.create({ dataDir, extensions: { vector, btree_gin } });
}
