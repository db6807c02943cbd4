import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  conflict,
  type FactRecord,
  invalidInput,
  type JsonValue,
  type Memory,
  type MemorySnapshot,
  parseSnapshot,
  type Scope,
  type SnapshotCounts,
  type SnapshotProgress,
  StrataError,
} from '@strata-memory/core';
import { countSnapshot } from '@strata-memory/core/internals';
import { type FactEdit, readFactEdits } from './read-fact-edits.ts';
import { SNAPSHOT_FILE, scopeFilePath } from './scope-file-names.ts';

/** The provenance note of a correction made by editing a fact in a scope's Markdown. */
export const IMPORTED_EDIT = 'imported edit';

/** Options of `importFromDirectory`. */
export interface ImportFromDirectoryOptions {
  onProgress?: (progress: SnapshotProgress) => void;
  /**
   * Write only the edited fact values, as corrections, into the store the folder was exported
   * from (which already holds the rest). Each edited fact must still be current there.
   */
  editsOnly?: boolean;
}

/** A fact value edited in a scope's Markdown, and the correction it became. */
export interface ImportedCorrection {
  scope: Scope;
  file: string;
  line: number;
  entityType: string;
  entityId: string;
  key: string;
  from: JsonValue;
  to: JsonValue;
  /** The new version the correction wrote. */
  fact: FactRecord;
}

/** What `importFromDirectory` wrote. */
export interface DirectoryImport {
  dir: string;
  counts: SnapshotCounts;
  /** Hand edits of fact values, each written as a correction. */
  corrections: ImportedCorrection[];
}

async function readSnapshot(dir: string): Promise<MemorySnapshot> {
  const file = join(dir, SNAPSHOT_FILE);
  if (!existsSync(file)) {
    throw invalidInput(`${dir} holds no ${SNAPSHOT_FILE}: give a folder written by strata export`, { dir });
  }
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw invalidInput(`${file} is not JSON: ${(error as Error).message}`, { file });
  }
  try {
    return parseSnapshot(json);
  } catch (error) {
    if (StrataError.isInstance(error)) {
      throw new StrataError({
        code: error.code,
        message: `${file}: ${error.message}`,
        details: { file, ...(error.details ?? {}) },
      });
    }
    throw error;
  }
}

/** A memory folder read and checked, ready to import. */
export interface MemoryDirectory {
  dir: string;
  snapshot: MemorySnapshot;
  edits: Array<FactEdit & { scope: Scope }>;
}

/**
 * Reads and checks a folder written by `exportToDirectory` without touching any store: the snapshot
 * in `memory.json` and the fact values changed by hand in the scopes' Markdown. A malformed snapshot
 * or edit is `invalid_input` naming the file (and line).
 */
export async function readMemoryDirectory(dirInput: string): Promise<MemoryDirectory> {
  const dir = resolve(dirInput);
  const snapshot = await readSnapshot(dir);
  const edits: Array<FactEdit & { scope: Scope }> = [];
  for (const section of snapshot.scopes) {
    const file = join(dir, scopeFilePath(section.scope));
    if (!existsSync(file)) continue;
    const text = await readFile(file, 'utf8');
    for (const edit of readFactEdits(text, file, section)) edits.push({ ...edit, scope: section.scope });
  }
  return { dir, snapshot, edits };
}

/** Each edited fact is still the current version in the store (nothing changed it since the export). */
async function assertStillCurrent(memory: Memory, edits: MemoryDirectory['edits']): Promise<void> {
  for (const edit of edits) {
    const [stored] = await memory.store.facts.get({ scope: edit.scope, ids: [edit.fact.id] });
    if (!stored || (stored.status !== 'active' && stored.status !== 'stale')) {
      throw conflict(
        `${edit.file}:${edit.line}: fact ${edit.fact.id} is no longer the current value in this store (${stored ? stored.status : 'not found'}): export again and redo the edit`,
        { file: edit.file, line: edit.line, id: edit.fact.id },
      );
    }
  }
}

/**
 * Loads a memory folder into a memory: the snapshot in `memory.json` as it was (into any store),
 * then each fact value changed by hand in a scope's Markdown as a correction through the engine
 * (the old value superseded and kept in history, provenance `human` via `imported edit`).
 * Everything is checked before anything is written: a malformed snapshot or edit is
 * `invalid_input` naming the file (and line), and writes nothing.
 */
export async function importFromDirectory(
  memory: Memory,
  dir: string | MemoryDirectory,
  options: ImportFromDirectoryOptions = {},
): Promise<DirectoryImport> {
  const loaded = typeof dir === 'string' ? await readMemoryDirectory(dir) : dir;
  let counts: SnapshotCounts;
  if (options.editsOnly) {
    await assertStillCurrent(memory, loaded.edits);
    counts = countSnapshot({ ...loaded.snapshot, scopes: [] });
  } else {
    counts = await memory.import(
      loaded.snapshot,
      options.onProgress ? { onProgress: options.onProgress } : {},
    );
  }
  const corrections: ImportedCorrection[] = [];
  for (const edit of loaded.edits) {
    const { fact } = edit;
    const result = await memory.facts.correct(edit.scope, {
      entityType: fact.entityType,
      entity: fact.entityId,
      key: fact.key,
      value: edit.value,
      via: IMPORTED_EDIT,
    });
    corrections.push({
      scope: edit.scope,
      file: edit.file,
      line: edit.line,
      entityType: fact.entityType,
      entityId: fact.entityId,
      key: fact.key,
      from: fact.value,
      to: edit.value,
      fact: result.fact,
    });
  }
  return { dir: loaded.dir, counts, corrections };
}
