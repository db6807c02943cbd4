import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createMemory } from '@strata-memory/core';
import { StrataError } from '@strata-memory/core/store';
import { getLoadablePath } from 'sqlite-vec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scopeHash, signBits } from '../episodes/vector-index.ts';
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

  it('keeps review items written before version 10 without a key, and the engine still queues their proposals once', async () => {
    const db = new DatabaseSync(path, { allowExtension: true });
    db.loadExtension(getLoadablePath());
    migrate(db, MIGRATIONS.slice(0, 9));
    db.close();
    const user = { orgId: 'acme', userId: 'maria' };
    const said = { role: 'user' as const, content: 'What if we extended terms to 90 days?' };
    const first = createMemory({ store: sqliteStore({ path }) });
    await first.observe({ ...user, threadId: 't1' }, said);
    await first.close();
    // What version 9 stored: the same row, without the column version 10 adds.
    const raw = new DatabaseSync(path);
    raw.exec('UPDATE review_items SET dedupe_key = NULL');
    raw.close();

    const store = sqliteStore({ path });
    const legacy = await store.review.list({ scope: user, dedupeKey: null });
    expect(legacy.items).toHaveLength(1);
    expect(legacy.items[0]!.dedupeKey).toBeUndefined();
    const again = createMemory({ store });
    await again.observe({ ...user, threadId: 't2' }, said);
    await again.observe(
      { ...user, threadId: 't2' },
      { role: 'user', content: 'What if we paid suppliers in 30 days?' },
    );
    const pending = await store.review.list({ scope: user });
    expect(pending.items.map((i) => i.id)).toContain(legacy.items[0]!.id);
    expect(pending.items).toHaveLength(2);
    await again.close();
  });

  it('moves version 2 vectors, partitioned by tenant, into scope partitions, searchable as before', async () => {
    const db = new DatabaseSync(path, { allowExtension: true });
    db.loadExtension(getLoadablePath());
    migrate(db, MIGRATIONS.slice(0, 2));
    // The version 2 layout: one vec0 table per size, partitioned by tenant, scope hash as a filter.
    db.exec(`CREATE VIRTUAL TABLE episode_vectors_4 USING vec0(
      tenant TEXT PARTITION KEY, scope_hash INTEGER, status TEXT, access_level INTEGER, occurred_at INTEGER,
      embedding FLOAT[4] DISTANCE_METRIC=l2, embedding_bits BIT[8], chunk_size = 8)`);
    db.exec(
      `INSERT INTO vector_indexes (dimensions, table_name, created_at) VALUES (4, 'episode_vectors_4', 1)`,
    );
    const scopes = [
      { scope: { orgId: 'acme', userId: 'ann' }, columns: ['org:acme', 'acme', 'ann', '', ''] },
      { scope: { orgId: 'acme', userId: 'bob' }, columns: ['org:acme', 'acme', 'bob', '', ''] },
    ];
    const vectors = [
      [1, 0, 0, 0],
      [0.9, 0.1, 0, 0],
      [0, 1, 0, 0],
      [0.8, 0, 0.2, 0],
    ];
    vectors.forEach((vector, i) => {
      const { columns } = scopes[i % 2]!;
      const rowId = i + 1;
      db.prepare(
        `INSERT INTO episodes (row_id, id, tenant, org_id, user_id, agent_id, thread_id, text, occurred_at, created_at,
           importance, access_count, dimensions, embedding_norm, content_hash, status, access_level, provenance, metadata)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 1, 0.5, 0, 4, ?, 'h', 'active', 0, '{"source":"api","at":1}', '{}')`,
      ).run(rowId, `v-${i}`, ...columns, `vector ${i}`, Math.hypot(...vector));
      db.prepare('INSERT INTO episode_embeddings (row_id, embedding) VALUES (?, ?)').run(
        rowId,
        new Uint8Array(Float64Array.from(vector).buffer),
      );
      const norm = Math.hypot(...vector);
      db.prepare(
        `INSERT INTO episode_vectors_4 (rowid, tenant, scope_hash, status, access_level, occurred_at, embedding, embedding_bits)
         VALUES (?, 'org:acme', ?, 'active', 0, 1, ?, vec_bit(?))`,
      ).run(
        BigInt(rowId),
        scopeHash(columns),
        Float32Array.from(vector.map((x) => x / norm)),
        signBits(vector),
      );
    });
    db.exec(`INSERT INTO vector_partitions (tenant, dimensions, vectors) VALUES ('org:acme', 4, 4)`);
    db.close();

    const store = sqliteStore({ path });
    const ann = await store.episodes.searchVector({ scope: scopes[0]!.scope, vector: [1, 0, 0, 0] });
    expect(ann.map((h) => h.episode.id)).toEqual(['v-0', 'v-2']);
    const bob = await store.episodes.searchVector({ scope: scopes[1]!.scope, vector: [1, 0, 0, 0] });
    expect(bob.map((h) => h.episode.id)).toEqual(['v-1', 'v-3']);
    await store.close();
    expect(versionOf(path)).toBe(SCHEMA_VERSION);
    expect(tables(path)).not.toContain('episode_vectors_4');
    expect(tables(path)).not.toContain('vector_partitions');
    const check = new DatabaseSync(path);
    expect(
      check.prepare('SELECT dimensions, vectors FROM vector_scopes ORDER BY scope_key').all(),
    ).toHaveLength(2);
    expect(
      (
        check.prepare('SELECT sum(vectors) AS n FROM vector_scopes WHERE dimensions = 4').get() as {
          n: number;
        }
      ).n,
    ).toBe(4);
    check.close();
  });

  it('packs the sign codes of vectors indexed before version 8, and coarse search finds them', async () => {
    const scope = { orgId: 'acme', userId: 'ann' };
    // One row in ten points the query's way; the others the opposite way (every sign flipped).
    const query = [1, -3, 0.5, -1];
    const vectors = Array.from({ length: 300 }, (_, i) =>
      i % 10 === 0 ? query : query.map((x, d) => -x * (1 + ((i + d) % 5) / 10)),
    );
    const before = sqliteStore({ path });
    await before.episodes.put({
      episodes: vectors.map((embedding, i) => ({
        id: `v-${String(i).padStart(3, '0')}`,
        scope,
        text: `vector ${i}`,
        occurredAt: i,
        embedding,
        provenance: { source: 'api' as const },
      })),
    });
    await before.close();
    // Back to version 7: the same rows, with no codes.
    const db = new DatabaseSync(path);
    db.exec(`DROP TABLE vector_code_blocks; UPDATE strata_meta SET value = '7' WHERE key = 'schema_version'`);
    db.close();

    const store = sqliteStore({ path, exactVectorLimit: 0, vectorOversampling: 1 });
    expect(versionOf(path)).toBe(SCHEMA_VERSION);
    const check = new DatabaseSync(path);
    const packed = check
      .prepare('SELECT sum(length(row_ids)) / 8 AS n, sum(length(codes)) AS bytes FROM vector_code_blocks')
      .get() as { n: number; bytes: number };
    check.close();
    expect(packed).toEqual({ n: 300, bytes: 300 * 4 });
    const found = await store.episodes.searchVector({ scope, vector: query, limit: 5 });
    expect(found).toHaveLength(5);
    for (const hit of found) expect(hit.score).toBeCloseTo(1, 12);
    await store.close();
  });

  it('quantises the vectors indexed before version 9, and coarse search ranks them exactly', async () => {
    const scope = { orgId: 'acme', userId: 'ann' };
    const vectors = Array.from({ length: 50 }, (_, i) => [1, (i % 7) - 3, i / 10, -1]);
    const before = sqliteStore({ path });
    await before.episodes.put({
      episodes: [
        ...vectors.map((embedding, i) => ({
          id: `v-${String(i).padStart(3, '0')}`,
          scope,
          text: `vector ${i}`,
          occurredAt: i,
          embedding,
          provenance: { source: 'api' as const },
        })),
        {
          id: 'zero',
          scope,
          text: 'zero',
          occurredAt: 0,
          embedding: [0, 0, 0, 0],
          provenance: { source: 'api' },
        },
      ],
    });
    const expected = await before.episodes.searchVector({ scope, vector: [1, 0, 0, 0], limit: 5 });
    await before.close();
    // Back to version 8: the same rows, with no quantised copies.
    const db = new DatabaseSync(path);
    db.exec(`DROP TABLE quantised_vectors; UPDATE strata_meta SET value = '8' WHERE key = 'schema_version'`);
    db.close();

    const store = sqliteStore({ path, exactVectorLimit: 0, vectorOversampling: 64 });
    expect(versionOf(path)).toBe(SCHEMA_VERSION);
    const check = new DatabaseSync(path);
    const copies = check
      .prepare('SELECT count(*) AS n, sum(length(codes)) AS bytes FROM quantised_vectors')
      .get();
    check.close();
    expect(copies).toEqual({ n: 50, bytes: 50 * 4 });
    const found = await store.episodes.searchVector({ scope, vector: [1, 0, 0, 0], limit: 5 });
    expect(found).toEqual(expected);
    await store.close();
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
