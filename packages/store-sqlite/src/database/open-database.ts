import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { StrataError } from '@strata-memory/core/store';
import { getLoadablePath } from 'sqlite-vec';
import { registerJsonEqual } from '../sql/value-filter-sql.ts';
import { mapSqliteError } from './native-errors.ts';

export interface OpenDatabaseOptions {
  /** A file path, or `':memory:'`. */
  path: string;
  busyTimeoutMs: number;
  synchronous: 'normal' | 'full';
  /** Page cache size in MiB. */
  cacheSizeMb: number;
}

export function isMemoryPath(path: string): boolean {
  return path === ':memory:' || path === '';
}

/**
 * Opens the connection with the settings every Strata database runs under: WAL (readers never
 * block the writer), foreign keys on, a busy timeout, `secure_delete` (deleted content is
 * overwritten with zeros, so erased text does not linger in freed pages), and the sqlite-vec
 * extension loaded (then extension loading switched off again, so SQL cannot load anything else).
 */
export function openDatabase(options: OpenDatabaseOptions): DatabaseSync {
  const memory = isMemoryPath(options.path);
  const location = memory ? ':memory:' : resolve(options.path);
  if (!memory) mkdirSync(dirname(location), { recursive: true });

  let db: DatabaseSync;
  try {
    db = new DatabaseSync(location, { allowExtension: true, enableForeignKeyConstraints: true });
  } catch (error) {
    throw new StrataError({
      code: 'store_unavailable',
      message: `Cannot open the SQLite database at ${location}: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
      retryable: false,
    });
  }

  try {
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
    if (!memory) {
      const mode = db.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode?: string } | undefined;
      if (mode?.journal_mode !== 'wal') {
        throw new StrataError({
          code: 'store_failure',
          message: `The SQLite database at ${location} cannot switch to WAL mode (got "${mode?.journal_mode}"); is it on a network file system?`,
        });
      }
    }
    db.exec(`PRAGMA synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    db.exec('PRAGMA foreign_keys = ON');
    db.exec('PRAGMA secure_delete = ON');
    db.exec('PRAGMA temp_store = MEMORY');
    db.exec(`PRAGMA cache_size = ${-Math.max(1, Math.floor(options.cacheSizeMb)) * 1024}`);
    loadVectorExtension(db);
    registerJsonEqual(db);
    return db;
  } catch (error) {
    db.close();
    throw mapSqliteError(error) ?? error;
  }
}

/**
 * Gives the planner statistics for every table that has none or has changed much since (SQLite's
 * advice for a connection that is opened once and kept: `PRAGMA optimize=0x10002`), so a file
 * written by a process that never closed it, or by an older version, is not planned as if empty.
 * Bounded by SQLite's own analysis limit; usually nothing to do. Best effort: a file another
 * process is writing is analysed later, by the periodic refresh (see `Session`).
 */
export function analyseIfNeeded(db: DatabaseSync): void {
  try {
    db.exec('PRAGMA optimize=0x10002');
  } catch {
    // Busy or read-only: planning works without statistics, only less well.
  }
}

function loadVectorExtension(db: DatabaseSync): void {
  try {
    db.loadExtension(getLoadablePath());
  } catch (error) {
    throw new StrataError({
      code: 'store_failure',
      message: `Cannot load the sqlite-vec extension on ${process.platform}-${process.arch}: ${error instanceof Error ? error.message : String(error)}. Install the sqlite-vec package for this platform.`,
      cause: error,
    });
  } finally {
    db.enableLoadExtension(false);
  }
}
