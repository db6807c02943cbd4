import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { StrataError } from '@strata-memory/core/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PATH, SCHEMA_VERSION, type SqliteStoreOptions, sqliteStore } from './index.ts';

let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'strata-sqlite-store-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('sqliteStore', () => {
  it('defaults to .strata/memory.db', () => {
    expect(DEFAULT_PATH).toBe('.strata/memory.db');
  });

  it('creates missing folders, runs in WAL mode, and declares a persistent multi-process store', async () => {
    const path = join(folder, 'nested', 'deeper', 'memory.db');
    const store = sqliteStore({ path, name: 'agent-memory' });
    expect(store.name).toBe('agent-memory');
    expect(store.capabilities).toEqual({
      keywordSearch: true,
      vectorSearch: true,
      keywordRanking: 'bm25',
      transactions: true,
      multiProcess: true,
      persistent: true,
    });
    await store.state.set({ scope: { userId: 'u' }, key: 'k', value: 1 });
    await store.close();
    expect(existsSync(path)).toBe(true);
    const db = new DatabaseSync(path);
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    db.close();
  });

  it('keeps an in-memory database for ":memory:", declared as not persistent', async () => {
    const store = sqliteStore({ path: ':memory:' });
    expect(store.capabilities).toMatchObject({ persistent: false, multiProcess: false });
    await store.close();
  });

  it('enforces foreign keys: an edge never outlives its nodes', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const scope = { userId: 'u' };
    const provenance = { source: 'api' as const };
    const a = await store.graph.upsertNode({ node: { scope, type: 'x', name: 'a', provenance } });
    const b = await store.graph.upsertNode({ node: { scope, type: 'x', name: 'b', provenance } });
    await store.graph.addEdge({ edge: { scope, from: a.id, to: b.id, relation: 'r', provenance } });
    await store.graph.deleteNodes({ scope, ids: [b.id] });
    expect((await store.graph.listEdges({ scope })).items).toEqual([]);
    expect(await store.graph.findNodes({ scope, names: ['b'] })).toEqual([]);
    await store.close();
  });

  it('rejects bad options with invalid_input before touching the disk', () => {
    const bad: unknown[] = [
      { vectorChunkSize: 12 },
      { busyTimeoutMs: -1 },
      { synchronous: 'off' },
      { path: join(folder, 'x.db'), unknown: true },
    ];
    for (const options of bad) {
      let caught: unknown;
      try {
        sqliteStore(options as SqliteStoreOptions);
      } catch (error) {
        caught = error;
      }
      expect(StrataError.hasCode(caught, 'invalid_input'), JSON.stringify(options)).toBe(true);
    }
    expect(existsSync(join(folder, 'x.db'))).toBe(false);
  });

  it('fails with store_unavailable when the file cannot be opened', () => {
    let caught: unknown;
    try {
      sqliteStore({ path: folder });
    } catch (error) {
      caught = error;
    }
    expect(StrataError.hasCode(caught, 'store_unavailable')).toBe(true);
  });

  it('reports its size on disk: the file, its write-ahead log and shared memory', async () => {
    const path = join(folder, 'size.db');
    const store = sqliteStore({ path });
    await store.state.set({ scope: { userId: 'u' }, key: 'k', value: 'x'.repeat(10_000) });
    const size = await store.size!();
    const onDisk = [path, `${path}-wal`, `${path}-shm`].map((p) => (existsSync(p) ? statSync(p).size : 0));
    expect(size.parts.map((part) => part.bytes)).toEqual(onDisk);
    expect(size.bytes).toBe(onDisk.reduce((a, b) => a + b, 0));
    expect(size.bytes).toBeGreaterThan(10_000);
    await store.close();
  });

  it('reports the migrations opening applied, and none on a second open', async () => {
    const path = join(folder, 'migrate.db');
    const first = sqliteStore({ path });
    const migration = await first.migrate!();
    expect(migration.version).toBe(SCHEMA_VERSION);
    expect(migration.latest).toBe(SCHEMA_VERSION);
    expect(migration.applied.at(-1)).toBe(SCHEMA_VERSION);
    expect(migration.applied.length).toBeGreaterThan(0);
    await first.close();
    const second = sqliteStore({ path });
    expect(await second.migrate!()).toEqual({ version: SCHEMA_VERSION, latest: SCHEMA_VERSION, applied: [] });
    await second.close();
  });
});
