import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { StoreSize } from '@strata-memory/core/store';
import { isMemoryPath } from './open-database.ts';
import type { Statements } from './statements.ts';

function fileBytes(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

/**
 * The space a database takes: its file and write-ahead log on disk (the WAL holds recent commits
 * until a checkpoint copies them into the file), or its pages for an in-memory database.
 */
export function databaseSize(sql: Statements, path: string): StoreSize {
  if (isMemoryPath(path)) {
    const pages = sql.get<{ page_count: number }>('PRAGMA page_count')?.page_count ?? 0;
    const pageSize = sql.get<{ page_size: number }>('PRAGMA page_size')?.page_size ?? 0;
    const bytes = pages * pageSize;
    return { bytes, parts: [{ name: 'database (in memory)', bytes }] };
  }
  const file = resolve(path);
  const parts = [
    { name: file, bytes: fileBytes(file) },
    { name: `${file}-wal`, bytes: fileBytes(`${file}-wal`) },
    { name: `${file}-shm`, bytes: fileBytes(`${file}-shm`) },
  ];
  return { bytes: parts.reduce((sum, part) => sum + part.bytes, 0), parts };
}
