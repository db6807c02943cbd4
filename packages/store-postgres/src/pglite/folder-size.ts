import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoreSize } from '@strata-memory/core/store';

/** The bytes of every file under a PGlite data folder: what the embedded database takes on disk. */
export async function folderSize(dir: string): Promise<StoreSize> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  let bytes = 0;
  for (const entry of entries) {
    if (entry.isFile()) bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { bytes, parts: [{ name: dir, bytes }] };
}
