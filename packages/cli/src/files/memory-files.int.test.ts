import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createMemory, type Memory, type Store, StrataError } from '@strata-memory/core';
import { manualClock, SAMPLE_SCOPES, seedSampleMemory, testEmbedder } from '@strata-memory/core/test';
import { postgresStore } from '@strata-memory/store-postgres';
import { pgliteStore } from '@strata-memory/store-postgres/pglite';
import { sqliteStore } from '@strata-memory/store-sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportToDirectory } from './export-directory.ts';
import { IMPORTED_EDIT, importFromDirectory } from './import-directory.ts';
import { SNAPSHOT_FILE, scopeFilePath } from './scope-file-names.ts';

const PG_URL = process.env.STRATA_PG_URL;
const work = mkdtempSync(join(tmpdir(), 'strata-files-'));
const schemas: string[] = [];
let seededDb: string;

/** Every file under `dir`, by path relative to it, with its bytes. */
function filesOf(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return out;
}

const memoryOn = (store: Store): Memory =>
  createMemory({ store, clock: manualClock('2026-06-01T09:00:00Z'), embedder: testEmbedder() });

let sqliteCount = 0;
/** A fresh SQLite file, or a copy of the seeded one. */
function sqliteMemory(): Memory {
  sqliteCount += 1;
  return memoryOn(sqliteStore({ path: join(work, `empty-${sqliteCount}.db`) }));
}

/** The PostgreSQL side: a fresh schema on STRATA_PG_URL's server, else a PGlite folder. */
function postgresMemory(label: string): Memory {
  if (PG_URL) {
    const schema = `t_files_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    return memoryOn(postgresStore({ connectionString: PG_URL, schema }));
  }
  return memoryOn(pgliteStore({ dataDir: join(work, `pglite-${label}`) }));
}

beforeAll(async () => {
  seededDb = join(work, 'seeded.db');
  const clock = manualClock();
  const memory = createMemory({ store: sqliteStore({ path: seededDb }), clock, embedder: testEmbedder() });
  await seedSampleMemory(memory, clock);
  await memory.close();
});

afterAll(async () => {
  if (PG_URL && schemas.length > 0) {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
  rmSync(work, { recursive: true, force: true });
});

describe('memory as files', () => {
  it('round-trips SQLite → files → PostgreSQL → files with identical bytes', async () => {
    const source = memoryOn(sqliteStore({ path: seededDb }));
    const first = join(work, 'first');
    const written = await exportToDirectory(source, first);
    await source.close();
    expect(written.files[0]).toBe(SNAPSHOT_FILE);
    expect(written.files).toContain(scopeFilePath(SAMPLE_SCOPES.maria));
    expect(written.counts.facts).toBeGreaterThan(0);

    const target = postgresMemory('roundtrip');
    const imported = await importFromDirectory(target, first);
    expect(imported.counts).toEqual(written.counts);
    expect(imported.corrections).toEqual([]);
    const second = join(work, 'second');
    await exportToDirectory(target, second);
    await target.close();

    const a = filesOf(first);
    const b = filesOf(second);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [path, bytes] of a) expect(b.get(path)!.equals(bytes), path).toBe(true);

    // The Markdown holds what a person looks for.
    const maria = a.get(scopeFilePath(SAMPLE_SCOPES.maria))!.toString('utf8');
    expect(maria).toMatch(/^- lead time: "30 days" <!-- fact:\S+ -->$/m);
    expect(maria).toMatch(/superseded: "45 days" · version 1/);
    expect(maria).toContain('## Review queue');
    expect(maria).toContain('## Episodes');
  });

  it('imports a hand-edited fact value as a correction via "imported edit", history kept', async () => {
    const source = memoryOn(sqliteStore({ path: seededDb }));
    const dir = join(work, 'edited');
    await exportToDirectory(source, dir);
    await source.close();
    const file = join(dir, scopeFilePath(SAMPLE_SCOPES.maria));
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('- lead time: "30 days" <!--');
    writeFileSync(file, text.replace('- lead time: "30 days" <!--', '- lead time: "21 days" <!--'));

    const target = sqliteMemory();
    const result = await importFromDirectory(target, dir);
    expect(result.corrections).toHaveLength(1);
    expect(result.corrections[0]).toMatchObject({ key: 'lead time', from: '30 days', to: '21 days' });
    const history = await target.facts.history(SAMPLE_SCOPES.maria, {
      entity: 'supplier x',
      key: 'lead time',
    });
    expect(history.map((f) => [f.value, f.status])).toEqual([
      ['45 days', 'superseded'],
      ['30 days', 'superseded'],
      ['21 days', 'active'],
    ]);
    expect(history[2]!.provenance).toMatchObject({ source: 'human', via: IMPORTED_EDIT });
    const audit = await target.audit.list(SAMPLE_SCOPES.maria, { actions: ['fact.supersede'] });
    expect(audit.items.some((e) => e.subjectId === history[2]!.id)).toBe(true);
    await target.close();
  });

  it('applies only the edits to the store the folder came from, once (editsOnly)', async () => {
    const copy = join(work, 'edits-only.db');
    copyFileSync(seededDb, copy);
    const memory = memoryOn(sqliteStore({ path: copy }));
    const dir = join(work, 'edits-only');
    await exportToDirectory(memory, dir);
    const file = join(dir, scopeFilePath(SAMPLE_SCOPES.maria));
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('- lead time: "30 days"', '- lead time: "21 days"'),
    );

    const result = await importFromDirectory(memory, dir, { editsOnly: true });
    expect(result.counts.facts).toBe(0);
    expect(result.corrections.map((c) => c.to)).toEqual(['21 days']);
    const history = await memory.facts.history(SAMPLE_SCOPES.maria, {
      entity: 'supplier x',
      key: 'lead time',
    });
    expect(history.map((f) => f.value)).toEqual(['45 days', '30 days', '21 days']);

    // The edited version is no longer current: applying the same folder again is refused.
    const error = await importFromDirectory(memory, dir, { editsOnly: true }).catch((e: unknown) => e);
    expect(StrataError.isInstance(error) && error.code).toBe('conflict');
    expect((error as Error).message).toContain(`${file}:`);
    const after = await memory.facts.history(SAMPLE_SCOPES.maria, { entity: 'supplier x', key: 'lead time' });
    expect(after).toEqual(history);
    await memory.close();
  });

  it('refuses a malformed hand edit, naming the file and line, and writes nothing', async () => {
    const source = memoryOn(sqliteStore({ path: seededDb }));
    const dir = join(work, 'broken-edit');
    await exportToDirectory(source, dir);
    await source.close();
    const file = join(dir, scopeFilePath(SAMPLE_SCOPES.maria));
    const lines = readFileSync(file, 'utf8').split('\n');
    const index = lines.findIndex((line) => line.startsWith('- lead time: '));
    lines[index] = lines[index]!.replace('"30 days"', '30 days');
    writeFileSync(file, lines.join('\n'));

    const target = sqliteMemory();
    const error = await importFromDirectory(target, dir).catch((e: unknown) => e);
    expect(StrataError.isInstance(error) && error.code).toBe('invalid_input');
    expect((error as Error).message).toContain(`${file}:${index + 1}:`);
    expect((await target.store.scopes.list({})).items).toEqual([]);
    await target.close();
  });

  it('refuses a malformed snapshot or one of another version, and writes nothing', async () => {
    const source = memoryOn(sqliteStore({ path: seededDb }));
    const dir = join(work, 'broken-snapshot');
    await exportToDirectory(source, dir);
    await source.close();
    const twin = join(dir, SNAPSHOT_FILE);
    const good = readFileSync(twin, 'utf8');
    expect(good).toMatch(/"version": 1\n}\n$/);
    const target = sqliteMemory();
    for (const bad of [
      // The snapshot's own version is its last key (keys are sorted).
      good.replace(/"version": 1\n}\n$/, '"version": 2\n}\n'),
      good.replace(/"confidence": [0-9.]+/, '"confidence": "high"'),
      good.slice(0, good.length / 2),
    ]) {
      writeFileSync(twin, bad);
      const error = await importFromDirectory(target, dir).catch((e: unknown) => e);
      expect(StrataError.isInstance(error) && error.code).toBe('invalid_input');
      expect((error as Error).message).toContain(twin);
    }
    expect((await target.store.scopes.list({})).items).toEqual([]);
    await target.close();
  });

  it('exports one subtree with the scope option, and refuses a non-empty folder it did not write', async () => {
    const source = memoryOn(sqliteStore({ path: seededDb }));
    const dir = join(work, 'bob');
    const written = await exportToDirectory(source, dir, { scope: SAMPLE_SCOPES.bob });
    expect(written.files).toEqual([
      SNAPSHOT_FILE,
      scopeFilePath(SAMPLE_SCOPES.bobThread),
      scopeFilePath(SAMPLE_SCOPES.bob),
    ]);
    // Exporting again replaces the earlier export.
    await exportToDirectory(source, dir, { scope: SAMPLE_SCOPES.solo });
    expect([...filesOf(dir).keys()]).toEqual([scopeFilePath(SAMPLE_SCOPES.solo), SNAPSHOT_FILE].sort());
    const other = join(work, 'other');
    await exportToDirectory(source, other, { scope: SAMPLE_SCOPES.solo });
    writeFileSync(join(other, 'notes.txt'), 'mine');
    rmSync(join(other, SNAPSHOT_FILE));
    const error = await exportToDirectory(source, other).catch((e: unknown) => e);
    expect(StrataError.isInstance(error) && error.code).toBe('invalid_input');
    expect(readFileSync(join(other, 'notes.txt'), 'utf8')).toBe('mine');
    await source.close();
  });
});
