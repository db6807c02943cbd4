import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { invalidInput, type Store } from '@strata-memory/core';
import { postgresStore } from '@strata-memory/store-postgres';
import { pgliteStore } from '@strata-memory/store-postgres/pglite';
import { sqliteStore } from '@strata-memory/store-sqlite';

/** The SQLite file a command opens when no store is given (relative to the current directory). */
export const DEFAULT_STORE = '.strata/memory.db';

/** Where a store lives, as the user wrote it and as the CLI reads it. */
export type StoreLocation =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string }
  | { kind: 'pglite'; dataDir: string };

/**
 * Reads a store argument: `postgres://…` or `postgresql://…` is a PostgreSQL server, `pglite:<dir>`
 * or an existing folder that holds a PostgreSQL data directory (`PG_VERSION`) is PGlite, anything
 * else is a SQLite file path (`:memory:` for a throwaway one).
 */
export function parseStoreLocation(value: string | undefined): StoreLocation {
  const given = (value ?? process.env.STRATA_STORE ?? DEFAULT_STORE).trim();
  if (given.length === 0) throw invalidInput('the store must be a file path, a folder or a postgres:// URL');
  if (/^postgres(ql)?:\/\//i.test(given)) return { kind: 'postgres', url: given };
  if (given.startsWith('pglite:')) {
    const dir = given.slice('pglite:'.length);
    if (dir.length === 0) throw invalidInput('pglite: needs a folder, e.g. pglite:./.strata/pg');
    return { kind: 'pglite', dataDir: resolve(dir) };
  }
  if (given === ':memory:') return { kind: 'sqlite', path: given };
  const path = resolve(given);
  if (existsSync(path) && statSync(path).isDirectory()) {
    if (existsSync(resolve(path, 'PG_VERSION'))) return { kind: 'pglite', dataDir: path };
    throw invalidInput(
      `${given} is a folder but not a PGlite data folder; give a SQLite file, pglite:<dir> or a URL`,
      {
        store: given,
      },
    );
  }
  return { kind: 'sqlite', path };
}

/** A printable form of a location that never shows a password. */
export function describeStoreLocation(location: StoreLocation): string {
  switch (location.kind) {
    case 'sqlite':
      return `SQLite ${location.path}`;
    case 'pglite':
      return `PGlite ${location.dataDir}`;
    case 'postgres': {
      const url = new URL(location.url);
      if (url.password) url.password = '***';
      return `PostgreSQL ${url.toString()}`;
    }
  }
}

/** Opens the store at a location (the caller closes it, through the memory that owns it). */
export function openStore(location: StoreLocation): Store {
  switch (location.kind) {
    case 'sqlite':
      return sqliteStore({ path: location.path });
    case 'pglite':
      return pgliteStore({ dataDir: location.dataDir });
    case 'postgres':
      return postgresStore({ connectionString: location.url });
  }
}
