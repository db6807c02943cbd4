import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Scope, Store } from '@strata-memory/core/store';
import { cosine } from '@strata-memory/core/store';
import { getLoadablePath } from 'sqlite-vec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../index.ts';
import { scopeHash, visibleScopeHashes } from './vector-index.ts';

const DIMENSIONS = 8;

/** A unit vector pointing mostly along `axis`, tilted by `tilt` toward the next axis. */
function direction(axis: number, tilt: number): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  v[axis] = 1;
  v[(axis + 1) % DIMENSIONS] = tilt;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

const QUERY = direction(0, 0);

describe.each([
  { mode: 'exact', options: {} },
  // Every tenant past the exact limit: sign-bit candidates, re-ranked by exact cosine.
  { mode: 'coarse then exact', options: { exactVectorLimit: 0 } },
])('vector search on sqlite-vec ($mode)', ({ mode, options }) => {
  let folder: string;
  let path: string;
  let store: Store;
  const alice: Scope = { orgId: 'acme', userId: 'alice' };
  const bob: Scope = { orgId: 'acme', userId: 'bob' };
  const otherTenant: Scope = { orgId: 'globex', userId: 'alice' };

  const putMany = async (
    prefix: string,
    scope: Scope,
    count: number,
    tilt: (i: number) => number,
    extra = {},
  ) => {
    for (let start = 0; start < count; start += 500) {
      const episodes = [];
      for (let i = start; i < Math.min(count, start + 500); i++) {
        episodes.push({
          id: `${prefix}-${String(i).padStart(5, '0')}`,
          scope,
          text: `${prefix} ${i}`,
          occurredAt: 1_000 + i,
          embedding: direction(0, tilt(i)),
          provenance: { source: 'api' as const },
          ...extra,
        });
      }
      await store.episodes.put({ episodes });
    }
  };

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'strata-vectors-'));
    path = join(folder, 'memory.db');
    store = sqliteStore({ path, ...options });
  });
  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('returns limit visible rows even when other tenants and sibling users hold many nearer vectors', async () => {
    // 1,500 vectors nearer to the query in another tenant, 1,500 in a sibling user of the same
    // tenant, and 10 farther ones that alice may see: KNN-then-filter would return nothing.
    await putMany('near-other', otherTenant, 1_500, (i) => 0.001 * (i + 1));
    await putMany('near-bob', bob, 1_500, (i) => 0.001 * (i + 1));
    await putMany('alice', alice, 10, (i) => 2 + i);
    await putMany('org', { orgId: 'acme' }, 3, (i) => 20 + i);
    const hits = await store.episodes.searchVector({ scope: alice, vector: QUERY, limit: 5 });
    expect(hits.map((h) => h.episode.id)).toEqual([
      'alice-00000',
      'alice-00001',
      'alice-00002',
      'alice-00003',
      'alice-00004',
    ]);
    const all = await store.episodes.searchVector({ scope: alice, vector: QUERY, limit: 50 });
    expect(all).toHaveLength(13);
    expect(new Set(all.map((h) => h.episode.scope.userId ?? 'org'))).toEqual(new Set(['alice', 'org']));
    // Scores are exact cosine similarities of the stored vectors, best first.
    for (const hit of all) expect(hit.score).toBeCloseTo(cosine(QUERY, hit.episode.embedding!), 12);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.score).toBeGreaterThanOrEqual(all[i]!.score);
  });

  it('filters status, access level and time inside the index, with nearer rows excluded', async () => {
    await putMany('archived', alice, 300, (i) => 0.001 * i, { status: 'archived' });
    await putMany('secret', alice, 300, (i) => 0.001 * i, { accessLevel: 5 });
    await putMany('early', alice, 300, (i) => 0.001 * i, { occurredAt: 10 });
    await putMany('plain', alice, 4, (i) => 1 + i);
    const ids = async (extra: Record<string, unknown>) =>
      (await store.episodes.searchVector({ scope: alice, vector: QUERY, limit: 4, ...extra })).map(
        (h) => h.episode.id,
      );
    // The coarse pass cannot tell these near-identical vectors apart (same sign bits), so it
    // returns some four of the qualifying rows; the exact search returns the nearest four.
    const expectIds = (found: string[], prefix: string) => {
      if (mode === 'exact') expect(found).toEqual([0, 1, 2, 3].map((i) => `${prefix}-0000${i}`));
      else {
        expect(found).toHaveLength(4);
        for (const id of found) expect(id.startsWith(`${prefix}-`)).toBe(true);
      }
    };
    expect(await ids({ accessLevel: 1, since: 100 })).toEqual([
      'plain-00000',
      'plain-00001',
      'plain-00002',
      'plain-00003',
    ]);
    expectIds(await ids({ status: ['archived'] }), 'archived');
    expectIds(await ids({ until: 10, accessLevel: 0 }), 'early');
    // No time window: the nearest rows (archived, then secret) all fail the filter.
    expectIds(await ids({ accessLevel: 1 }), 'early');

    // An update moves a row in or out of the filter.
    await store.episodes.update({ scope: alice, id: 'archived-00000', patch: { status: 'active' } });
    expect((await ids({ accessLevel: 1, since: 100 }))[0]).toBe('archived-00000');
    await store.episodes.update({ scope: alice, id: 'archived-00000', patch: { occurredAt: 5 } });
    expect((await ids({ accessLevel: 1, since: 100 }))[0]).toBe('plain-00000');
  });

  it('rolls vectors back with the transaction, including a vector table created inside it', async () => {
    const episode = (id: string) => ({
      id,
      scope: alice,
      text: id,
      occurredAt: 1,
      embedding: [0.6, 0.8, 0, 0, 0],
      provenance: { source: 'api' as const },
    });
    await expect(
      store.transaction(async (tx) => {
        await tx.episodes.put({ episodes: [episode('rolled-back')] });
        expect(await tx.episodes.searchVector({ scope: alice, vector: [0.6, 0.8, 0, 0, 0] })).toHaveLength(1);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await store.episodes.searchVector({ scope: alice, vector: [0.6, 0.8, 0, 0, 0] })).toEqual([]);
    // The same row id and a fresh table work afterwards.
    await store.episodes.put({ episodes: [episode('kept')] });
    const hits = await store.episodes.searchVector({ scope: alice, vector: [0.6, 0.8, 0, 0, 0] });
    expect(hits.map((h) => [h.episode.id, Math.round(h.score * 1e6) / 1e6])).toEqual([['kept', 1]]);
  });

  it('only compares vectors of the same size, and forgets deleted ones', async () => {
    await store.episodes.put({
      episodes: [
        {
          id: 'wide',
          scope: alice,
          text: 'wide',
          occurredAt: 1,
          embedding: [1, 0, 0],
          provenance: { source: 'api' },
        },
        {
          id: 'narrow',
          scope: alice,
          text: 'narrow',
          occurredAt: 1,
          embedding: QUERY,
          provenance: { source: 'api' },
        },
      ],
    });
    expect(
      (await store.episodes.searchVector({ scope: alice, vector: [1, 0, 0] })).map((h) => h.episode.id),
    ).toEqual(['wide']);
    await store.episodes.delete({ scope: alice, ids: ['narrow'] });
    expect(await store.episodes.searchVector({ scope: alice, vector: QUERY })).toEqual([]);
  });

  it('scores zero vectors 0, and answers a zero query by id', async () => {
    await store.episodes.put({
      episodes: [
        {
          id: 'b-zero',
          scope: alice,
          text: 'z',
          occurredAt: 1,
          embedding: new Array(DIMENSIONS).fill(0),
          provenance: { source: 'api' },
        },
        {
          id: 'a-near',
          scope: alice,
          text: 'n',
          occurredAt: 1,
          embedding: QUERY,
          provenance: { source: 'api' },
        },
        {
          id: 'c-opposite',
          scope: alice,
          text: 'o',
          occurredAt: 1,
          embedding: QUERY.map((x) => -x),
          provenance: { source: 'api' },
        },
      ],
    });
    const hits = await store.episodes.searchVector({ scope: alice, vector: QUERY });
    expect(hits.map((h) => [h.episode.id, Math.round(h.score)])).toEqual([
      ['a-near', 1],
      ['b-zero', 0],
      ['c-opposite', -1],
    ]);
    const zeroQuery = await store.episodes.searchVector({
      scope: alice,
      vector: new Array(DIMENSIONS).fill(0),
    });
    expect(zeroQuery.map((h) => [h.episode.id, h.score])).toEqual([
      ['a-near', 0],
      ['b-zero', 0],
      ['c-opposite', 0],
    ]);
  });

  it('still returns limit visible rows when filter hashes collide (over-fetch until enough are found)', async () => {
    await putMany('bob', bob, 200, (i) => 0.001 * i);
    await putMany('alice', alice, 5, (i) => 1 + i);
    // Simulate a hash collision: stamp bob's rows in the index with alice's scope hash, so the
    // index's own filter lets them through; the exact SQL filter must still drop them.
    await store.close();
    const db = new DatabaseSync(path, { allowExtension: true });
    db.loadExtension(getLoadablePath());
    const aliceHash = scopeHash(['org:acme', 'acme', 'alice', '', '']);
    expect(visibleScopeHashes(alice)).toContain(aliceHash);
    const bobRows = db.prepare("SELECT row_id FROM episodes WHERE user_id = 'bob'").all() as Array<{
      row_id: number;
    }>;
    // The partition key cannot be updated in place: move each row into alice's partition.
    const read = db.prepare('SELECT embedding, embedding_bits FROM scoped_vectors_8 WHERE rowid = ?');
    const drop = db.prepare('DELETE FROM scoped_vectors_8 WHERE rowid = ?');
    const move = db.prepare(
      `INSERT INTO scoped_vectors_8 (rowid, scope_key, status, access_level, occurred_at, embedding, embedding_bits)
       VALUES (?, ?, 'active', 0, 1, ?, vec_bit(?))`,
    );
    for (const row of bobRows) {
      const stored = read.get(BigInt(row.row_id)) as { embedding: Uint8Array; embedding_bits: Uint8Array };
      drop.run(BigInt(row.row_id));
      move.run(BigInt(row.row_id), aliceHash, stored.embedding, stored.embedding_bits);
    }
    db.prepare('UPDATE vector_scopes SET vectors = vectors + ? WHERE scope_key = ?').run(
      bobRows.length,
      aliceHash,
    );
    db.close();

    store = sqliteStore({ path, ...options });
    const hits = await store.episodes.searchVector({ scope: alice, vector: QUERY, limit: 3 });
    expect(hits.map((h) => h.episode.id)).toEqual(['alice-00000', 'alice-00001', 'alice-00002']);
  });
});

describe('coarse-then-exact vector search on a large tenant', () => {
  it('finds at least 90% of the exact top 10, scored exactly, and stays within the reader’s scope', async () => {
    const dimensions = 64;
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648 - 0.5;
    };
    // Clustered, like sentence embeddings (uniform random vectors are the worst case for sign bits).
    const centers = Array.from({ length: 40 }, () => Array.from({ length: dimensions }, random));
    const vector = () =>
      centers[Math.floor((random() + 0.5) * centers.length)]!.map((x) => x + random() * 0.6);
    const scope: Scope = { orgId: 'big', userId: 'reader' };
    const sibling: Scope = { orgId: 'big', userId: 'sibling' };
    const exact = sqliteStore({ path: ':memory:', exactVectorLimit: Number.MAX_SAFE_INTEGER });
    const coarse = sqliteStore({ path: ':memory:', exactVectorLimit: 500 });
    const rows = Array.from({ length: 3_000 }, (_, i) => ({
      id: `v-${String(i).padStart(5, '0')}`,
      scope: i % 3 === 0 ? sibling : scope,
      text: `row ${i}`,
      occurredAt: i,
      embedding: vector(),
      provenance: { source: 'api' as const },
    }));
    for (let start = 0; start < rows.length; start += 1_000) {
      const episodes = rows.slice(start, start + 1_000);
      await exact.episodes.put({ episodes });
      await coarse.episodes.put({ episodes });
    }
    let overlap = 0;
    const queries = 20;
    for (let q = 0; q < queries; q++) {
      const query = vector();
      const truth = await exact.episodes.searchVector({ scope, vector: query, limit: 10 });
      const found = await coarse.episodes.searchVector({ scope, vector: query, limit: 10 });
      expect(found).toHaveLength(10);
      for (const hit of found) {
        expect(hit.episode.scope).toEqual(scope);
        expect(hit.score).toBeCloseTo(cosine(query, hit.episode.embedding!), 12);
      }
      const truthIds = new Set(truth.map((hit) => hit.episode.id));
      overlap += found.filter((hit) => truthIds.has(hit.episode.id)).length;
    }
    expect(overlap / (queries * 10)).toBeGreaterThanOrEqual(0.9);
    await exact.close();
    await coarse.close();
  });
});
