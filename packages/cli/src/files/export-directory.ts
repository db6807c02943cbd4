import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import {
  invalidInput,
  type Memory,
  type Scope,
  type SnapshotCounts,
  type SnapshotProgress,
} from '@strata-memory/core';
import { countSnapshot } from '@strata-memory/core/internals';
import { renderScopeMarkdown } from './render-scope-markdown.ts';
import { SNAPSHOT_FILE, scopeFilePath } from './scope-file-names.ts';

/** Options of `exportToDirectory`. */
export interface ExportToDirectoryOptions {
  /** Export this scope's subtree; without it, every tenant. */
  scope?: Scope;
  onProgress?: (progress: SnapshotProgress) => void;
}

/** What `exportToDirectory` wrote. */
export interface DirectoryExport {
  dir: string;
  /** The files written, relative to `dir`: the JSON twin, then one Markdown file per scope. */
  files: string[];
  counts: SnapshotCounts;
}

/** Removes what an earlier export wrote (its JSON twin and the Markdown files it lists), nothing else. */
async function clearEarlierExport(dir: string): Promise<void> {
  if (!existsSync(dir)) return;
  const entries = await readdir(dir);
  if (entries.length === 0) return;
  const twin = join(dir, SNAPSHOT_FILE);
  if (!existsSync(twin)) {
    throw invalidInput(`${dir} is not empty and holds no ${SNAPSHOT_FILE}: export into an empty folder`, {
      dir,
    });
  }
  let earlier: { scopes?: Array<{ scope?: Scope }> };
  try {
    earlier = JSON.parse(await readFile(twin, 'utf8'));
  } catch {
    throw invalidInput(`${twin} is not JSON: export into an empty folder instead`, { dir });
  }
  for (const section of earlier.scopes ?? []) {
    if (!section.scope) continue;
    const file = join(dir, scopeFilePath(section.scope));
    await rm(file, { force: true });
    // Drop the folders the file leaves empty, up to `dir`.
    for (let folder = dirname(file); folder !== dir && folder.startsWith(dir); folder = dirname(folder)) {
      if ((await readdir(folder).catch(() => ['?'])).length > 0) break;
      await rmdir(folder);
    }
  }
  await rm(twin);
}

/**
 * Writes memory as files: `memory.json` (the snapshot, everything a lossless import needs) and one
 * Markdown file per scope (`org=acme/user=maria.md`, see `renderScopeMarkdown`). The same memory
 * gives the same bytes, whichever store holds it. A folder from an earlier export is replaced; any
 * other non-empty folder is refused (`invalid_input`).
 */
export async function exportToDirectory(
  memory: Memory,
  dirInput: string,
  options: ExportToDirectoryOptions = {},
): Promise<DirectoryExport> {
  const dir = resolve(dirInput);
  const snapshot = await memory.export({
    ...(options.scope ? { scope: options.scope } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  await clearEarlierExport(dir);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, SNAPSHOT_FILE), `${JSON.stringify(snapshot, null, 2)}\n`);
  const files = [SNAPSHOT_FILE];
  for (const section of snapshot.scopes) {
    const file = scopeFilePath(section.scope);
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), renderScopeMarkdown(section, snapshot));
    files.push(file);
  }
  return { dir, files, counts: countSnapshot(snapshot) };
}
