import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { StrataError } from '@strata-memory/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION, sqliteStore } from '../index.ts';
import { MIGRATIONS, migrate, readSchemaVersion } from './migrations.ts';

let folder: string;
let path: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'strata-migrations-'));
  path = join(folder, 'memory.db');
});

afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function versionOf(file: string): number {
  const db = new DatabaseSync(file);
  try {
    return readSchemaVersion(db);
  } finally {
    db.close();
  }
}

function tables(file: string): string[] {
  const db = new DatabaseSync(file);
  try {
    return (
      db
        .prepare("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY name")
        .all() as Array<{
        name: string;
      }>
    ).map((r) => r.name);
  } finally {
    db.close();
  }
}

describe('schema migrations', () => {
  it('versions are 1, 2, … in order, and SCHEMA_VERSION is the last', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('creates the whole schema on a new file and stamps the version', async () => {
    const store = sqliteStore({ path });
    await store.close();
    expect(versionOf(path)).toBe(SCHEMA_VERSION);
    expect(tables(path)).toEqual(
      expect.arrayContaining([
        'episodes',
        'episodes_fts',
        'episodes_search',
        'facts',
        'nodes',
        'edges',
        'strata_meta',
      ]),
    );
  });

  it('is idempotent: reopening an up-to-date database changes nothing and keeps the data', async () => {
    const first = sqliteStore({ path });
    await first.state.set({ scope: { userId: 'u' }, key: 'k', value: { n: 1 } });
    await first.close();
    const before = tables(path);

    const second = sqliteStore({ path });
    expect((await second.state.get({ scope: { userId: 'u' }, key: 'k' }))?.value).toEqual({ n: 1 });
    await second.close();
    expect(tables(path)).toEqual(before);
    expect(versionOf(path)).toBe(SCHEMA_VERSION);
    // Running the migrations again directly is a no-op too.
    const db = new DatabaseSync(path);
    expect(migrate(db)).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('upgrades a database written by an older schema version, keeping and indexing its rows', async () => {
    // A file as the first release left it: version 1, no full-text index yet.
    const db = new DatabaseSync(path);
    migrate(db, MIGRATIONS.slice(0, 1));
    db.prepare(
      `INSERT INTO episodes (id, tenant, org_id, user_id, agent_id, thread_id, text, occurred_at, created_at,
         importance, access_count, content_hash, status, access_level, provenance, metadata)
       VALUES ('old-1', 'user:u', '', 'u', '', '', 'The supplier moved delivery to Thursdays', 1, 1, 0.5, 0, 'h',
         'active', 0, '{"source":"api","at":1}', '{}')`,
    ).run();
    db.close();
    expect(versionOf(path)).toBe(1);
    expect(tables(path)).not.toContain('episodes_fts');

    const store = sqliteStore({ path });
    const hits = await store.episodes.searchKeyword({ scope: { userId: 'u' }, query: 'delivery' });
    expect(hits.map((h) => h.episode.id)).toEqual(['old-1']);
    // New writes are indexed too.
    await store.episodes.put({
      episodes: [
        {
          id: 'new-1',
          scope: { userId: 'u' },
          text: 'Delivery confirmed',
          occurredAt: 2,
          provenance: { source: 'api' },
        },
      ],
    });
    const after = await store.episodes.searchKeyword({ scope: { userId: 'u' }, query: 'delivery' });
    expect(after.map((h) => h.episode.id).sort()).toEqual(['new-1', 'old-1']);
    await store.close();
    expect(versionOf(path)).toBe(SCHEMA_VERSION);
  });

  it('refuses a database from a newer version with schema_version, and leaves it untouched', async () => {
    const store = sqliteStore({ path });
    await store.close();
    const db = new DatabaseSync(path);
    db.prepare("UPDATE strata_meta SET value = ? WHERE key = 'schema_version'").run(
      String(SCHEMA_VERSION + 5),
    );
    db.close();

    let caught: unknown;
    try {
      sqliteStore({ path });
    } catch (error) {
      caught = error;
    }
    expect(StrataError.hasCode(caught, 'schema_version')).toBe(true);
    const error = caught as StrataError;
    expect(error.message).toContain(`schema version ${SCHEMA_VERSION + 5}`);
    expect(error.message).toContain(`up to ${SCHEMA_VERSION}`);
    expect(error.message).toMatch(/upgrade/i);
    expect(error.details).toEqual({ found: SCHEMA_VERSION + 5, supported: SCHEMA_VERSION });
    expect(versionOf(path)).toBe(SCHEMA_VERSION + 5);
  });

  it('refuses a SQLite file that is not a Strata database', () => {
    const db = new DatabaseSync(path);
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
    db.close();
    let caught: unknown;
    try {
      sqliteStore({ path });
    } catch (error) {
      caught = error;
    }
    expect(StrataError.hasCode(caught, 'schema_version')).toBe(true);
    expect((caught as StrataError).message).toContain('not a Strata database');
    expect(tables(path)).toEqual(['invoices']);
  });

  it('rolls back a migration that fails, leaving the previous version', () => {
    const db = new DatabaseSync(path);
    const broken = [
      ...MIGRATIONS,
      {
        version: SCHEMA_VERSION + 1,
        description: 'broken',
        sql: 'CREATE TABLE extra (x); SELECT * FROM missing;',
      },
    ];
    expect(() => migrate(db, broken)).toThrow(/missing/);
    expect(readSchemaVersion(db)).toBe(0);
    expect(
      db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name IN ('extra', 'episodes')").get(),
    ).toEqual({ n: 0 });
    db.close();
  });
});
