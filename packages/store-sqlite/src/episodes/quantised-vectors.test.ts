import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../index.ts';
import { encodeEmbedding, euclideanNorm } from './episode-rows.ts';
import { cosineUpperBound, quantise } from './quantised-vectors.ts';

/** A deterministic pseudo-random vector (xorshift), components in -1..1. */
function randomVector(seed: number, dimensions: number): number[] {
  let x = seed * 2654435761 + 1;
  return Array.from({ length: dimensions }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) / 2 ** 32) * 2 - 1;
  });
}

function exactCosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot / (euclideanNorm(a) * euclideanNorm(b));
}

describe('quantise and cosineUpperBound', () => {
  it('rounds the unit vector to bytes and records the length of what rounding lost', () => {
    const vector = randomVector(1, 64);
    const norm = euclideanNorm(vector);
    const q = quantise(vector, norm);
    expect(Math.max(...Array.from(q.codes, Math.abs))).toBe(127);
    let lost = 0;
    for (let i = 0; i < vector.length; i++) {
      const residual = vector[i]! / norm - q.codes[i]! * q.scale;
      expect(Math.abs(residual)).toBeLessThanOrEqual(q.scale / 2 + 1e-15);
      lost += residual ** 2;
    }
    expect(q.error).toBeCloseTo(Math.sqrt(lost), 12);
    expect(q.error).toBeGreaterThan(0);
  });

  it('bounds the exact cosine from above, within the rounding loss', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const vector = randomVector(seed, 256);
      const query = randomVector(seed + 1000, 256);
      const queryNorm = euclideanNorm(query);
      const unit = Float64Array.from(query, (x) => x / queryNorm);
      const l1 = unit.reduce((sum, x) => sum + Math.abs(x), 0);
      const q = quantise(vector, euclideanNorm(vector));
      const exact = exactCosine(vector, query);
      const bound = cosineUpperBound(q, unit, l1);
      expect(bound).toBeGreaterThanOrEqual(exact);
      expect(bound - exact).toBeLessThanOrEqual(2 * q.error + 1e-8);
    }
  });
});

describe('coarse vector search with quantised bounds', () => {
  let folder: string;
  let path: string;
  const scope = { orgId: 'acme', userId: 'ann' };
  const DIMENSIONS = 32;
  const query = randomVector(7, DIMENSIONS);

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'strata-quantised-'));
    path = join(folder, 'memory.db');
    const store = sqliteStore({ path });
    await store.episodes.put({
      episodes: Array.from({ length: 400 }, (_, i) => ({
        id: `v-${String(i).padStart(3, '0')}`,
        scope,
        text: `vector ${i}`,
        occurredAt: i,
        embedding: randomVector(i + 1, DIMENSIONS),
        provenance: { source: 'api' as const },
      })),
    });
    await store.close();
  });

  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const search = async (limit: number, minScore?: number) => {
    // Every candidate of the sign codes (oversampling past the tenant's size), so the coarse
    // search's answer is the exact one and only the reading differs.
    const store = sqliteStore({ path, exactVectorLimit: 0, vectorOversampling: 64 });
    try {
      return await store.episodes.searchVector({
        scope,
        vector: query,
        limit,
        ...(minScore === undefined ? {} : { minScore }),
      });
    } finally {
      await store.close();
    }
  };

  it('returns the exact top results, exactly scored', async () => {
    const found = await search(10);
    const expected = Array.from({ length: 400 }, (_, i) => ({
      id: `v-${String(i).padStart(3, '0')}`,
      score: exactCosine(randomVector(i + 1, DIMENSIONS), query),
    }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 10);
    expect(found.map((h) => h.episode.id)).toEqual(expected.map((e) => e.id));
    for (const [i, hit] of found.entries()) expect(hit.score).toBeCloseTo(expected[i]!.score, 12);
  });

  it('never reads the float64 embedding of a candidate whose quantised copy rules it out', async () => {
    const before = await search(10);
    const last = before[before.length - 1]!.score;
    // The farthest row's stored embedding is replaced by the query itself: read, it would come
    // first with cosine 1. Its quantised copy still bounds it far below the tenth result.
    const db = new DatabaseSync(path);
    const scores = Array.from({ length: 400 }, (_, i) => exactCosine(randomVector(i + 1, DIMENSIONS), query));
    const farthest = scores.indexOf(Math.min(...scores));
    expect(scores[farthest]!).toBeLessThan(last - 0.1);
    db.prepare(
      `UPDATE episode_embeddings SET embedding = ?
        WHERE row_id = (SELECT row_id FROM episodes WHERE id = ?)`,
    ).run(encodeEmbedding(query), `v-${String(farthest).padStart(3, '0')}`);
    db.close();
    const after = await search(10);
    expect(after.map((h) => h.episode.id)).toEqual(before.map((h) => h.episode.id));
  });

  it('returns the rows at or above minScore, and never reads one its quantised copy rules out', async () => {
    const all = await search(400);
    const floor = all[4]!.score;
    expect((await search(400, floor)).map((h) => h.episode.id)).toEqual(
      all.slice(0, 5).map((h) => h.episode.id),
    );
    // The farthest row's embedding becomes the query itself: read, it would score 1.
    const farthest = all[all.length - 1]!.episode.id;
    const db = new DatabaseSync(path);
    db.prepare(
      `UPDATE episode_embeddings SET embedding = ?
        WHERE row_id = (SELECT row_id FROM episodes WHERE id = ?)`,
    ).run(encodeEmbedding(query), farthest);
    db.close();
    expect((await search(400)).map((h) => h.episode.id)).toContain(farthest);
    expect((await search(400, floor)).map((h) => h.episode.id)).toEqual(
      all.slice(0, 5).map((h) => h.episode.id),
    );
  });
});
