import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invalidInput, type Store } from '@strata-memory/core';
import { postgresStore } from '@strata-memory/store-postgres';
import { pgliteStore } from '@strata-memory/store-postgres/pglite';
import { sqliteStore } from '@strata-memory/store-sqlite';
import pg from 'pg';

/** The kind of store each eval case gets a fresh, empty one of. */
export type EvalStoreKind = { kind: 'sqlite' } | { kind: 'pglite' } | { kind: 'postgres'; url: string };

/** A store made for one case, and how to remove it once the memory on it is closed. */
export interface FreshStore {
  store: Store;
  /** Deletes the temporary file, folder or schema. */
  dispose(): Promise<void>;
}

/**
 * Reads `--store` for `strata eval`: `sqlite` (the default), `pglite`, or a `postgres://` URL (each
 * case gets its own schema on that database, dropped afterwards). A path to an existing store is
 * refused: an eval never writes into a memory someone uses.
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
  if (kind.kind !== 'postgres')
    return kind.kind === 'sqlite' ? 'SQLite (temporary file)' : 'PGlite (temporary folder)';
  const url = new URL(kind.url);
  if (url.password) url.password = '***';
  return `PostgreSQL ${url.toString()} (temporary schema)`;
}

/** Opens an empty store of the given kind. */
export async function openFreshStore(kind: EvalStoreKind): Promise<FreshStore> {
  switch (kind.kind) {
    case 'sqlite': {
      const dir = mkdtempSync(join(tmpdir(), 'strata-eval-'));
      return {
        store: sqliteStore({ path: join(dir, 'memory.db') }),
        dispose: async () => rmSync(dir, { recursive: true, force: true }),
      };
    }
    case 'pglite': {
      const dir = mkdtempSync(join(tmpdir(), 'strata-eval-pg-'));
      return {
        store: pgliteStore({ dataDir: dir }),
        dispose: async () => rmSync(dir, { recursive: true, force: true }),
      };
    }
    case 'postgres': {
      const schema = `strata_eval_${randomBytes(6).toString('hex')}`;
      const pool = new pg.Pool({ connectionString: kind.url, max: 4 });
      pool.on('error', () => {});
      return {
        store: postgresStore({ pool, schema }),
        dispose: async () => {
          try {
            await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          } finally {
            await pool.end();
          }
        },
      };
    }
  }
}
