import { describe, expect, it } from 'vitest';
import { DAY, newTenant, sorted, T0, unitVector, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';
import { episode } from './episodes.ts';

const SKIP_REASON =
  'the store does not declare vectorSearch; the capabilities suite checks that searchVector fails with unsupported';

export function vectorSearchSuite(options: StoreConformanceOptions): void {
  describe('vector search', () => {
    const store = useStore(options);

    it('returns the nearest episodes first with their cosine similarity', async ({ skip }) => {
      skip(!store().capabilities.vectorSearch, SKIP_REASON);
      const t = newTenant();
      const query = unitVector(8, 0);
      await store().episodes.put({
        episodes: [
          episode(t.id('far'), t.alice, 'far', { embedding: unitVector(8, 3) }),
          episode(t.id('near'), t.alice, 'near', { embedding: unitVector(8, 0, 0.1) }),
          episode(t.id('exact'), t.alice, 'exact', { embedding: unitVector(8, 0) }),
          episode(t.id('mid'), t.alice, 'mid', { embedding: unitVector(8, 0, 1) }),
          episode(t.id('opposite'), t.alice, 'opposite', { embedding: query.map((x) => -x) }),
        ],
      });
      const results = await store().episodes.searchVector({ scope: t.alice, vector: query, limit: 5 });
      expect(results.map((r) => r.episode.id)).toEqual(t.ids('exact', 'near', 'mid', 'far', 'opposite'));
      expect(results[0]!.score).toBeCloseTo(1, 4);
      expect(results[1]!.score).toBeCloseTo(1 / Math.hypot(1, 0.1), 4);
      expect(results[2]!.score).toBeCloseTo(Math.SQRT1_2, 4);
      expect(results[3]!.score).toBeCloseTo(0, 4);
      expect(results[4]!.score).toBeCloseTo(-1, 4);
      const top2 = await store().episodes.searchVector({ scope: t.alice, vector: query, limit: 2 });
      expect(top2.map((r) => r.episode.id)).toEqual(t.ids('exact', 'near'));
    });

    it('returns only candidates scoring at least minScore', async ({ skip }) => {
      skip(!store().capabilities.vectorSearch, SKIP_REASON);
      const t = newTenant();
      const query = unitVector(8, 0);
      await store().episodes.put({
        episodes: [
          episode(t.id('exact'), t.alice, 'exact', { embedding: unitVector(8, 0) }),
          episode(t.id('near'), t.alice, 'near', { embedding: unitVector(8, 0, 0.1) }),
          episode(t.id('mid'), t.alice, 'mid', { embedding: unitVector(8, 0, 1) }),
          ...Array.from({ length: 200 }, (_, i) =>
            episode(t.id(`far-${i}`), t.alice, `far ${i}`, {
              embedding: unitVector(8, 1 + (i % 6), 0.01 * i),
            }),
          ),
        ],
      });
      const search = (minScore: number, limit = 5) =>
        store().episodes.searchVector({ scope: t.alice, vector: query, limit, minScore });
      expect((await search(0.5)).map((r) => r.episode.id)).toEqual(t.ids('exact', 'near', 'mid'));
      expect((await search(0.95)).map((r) => r.episode.id)).toEqual(t.ids('exact', 'near'));
      expect((await search(0.95, 1)).map((r) => r.episode.id)).toEqual(t.ids('exact'));
      expect(await search(0.999)).toHaveLength(1);
      const all = await store().episodes.searchVector({ scope: t.alice, vector: query, limit: 10 });
      expect(all.length).toBe(10);
      await expect(search(1.5)).rejects.toMatchObject({ code: 'invalid_input' });
    });

    it('ignores episodes embedded with another number of dimensions, and those without one', async ({
      skip,
    }) => {
      skip(!store().capabilities.vectorSearch, SKIP_REASON);
      const t = newTenant();
      await store().episodes.put({
        episodes: [
          episode(t.id('d4'), t.alice, 'four', { embedding: unitVector(4, 0) }),
          episode(t.id('d8'), t.alice, 'eight', { embedding: unitVector(8, 0, 0.5) }),
          episode(t.id('none'), t.alice, 'no embedding'),
        ],
      });
      const eight = await store().episodes.searchVector({ scope: t.alice, vector: unitVector(8, 0) });
      expect(eight.map((r) => r.episode.id)).toEqual(t.ids('d8'));
      const four = await store().episodes.searchVector({ scope: t.alice, vector: unitVector(4, 0) });
      expect(four.map((r) => r.episode.id)).toEqual(t.ids('d4'));
      expect(await store().episodes.searchVector({ scope: t.alice, vector: unitVector(16, 0) })).toEqual([]);
    });

    it('respects scope even when another tenant and a sibling hold many nearer vectors', async ({ skip }) => {
      skip(!store().capabilities.vectorSearch, SKIP_REASON);
      const t = newTenant();
      const query = unitVector(8, 0);
      await store().episodes.put({
        episodes: Array.from({ length: 300 }, (_, i) =>
          episode(t.id(`other-${i}`), t.otherOrgAlice, `other ${i}`, { embedding: query }),
        ),
      });
      await store().episodes.put({
        episodes: Array.from({ length: 50 }, (_, i) =>
          episode(t.id(`bob-${i}`), t.bob, `bob ${i}`, { embedding: query }),
        ),
      });
      await store().episodes.put({
        episodes: [
          episode(t.id('mine-1'), t.alice, 'mine', { embedding: unitVector(8, 0, 2) }),
          episode(t.id('mine-2'), t.alice, 'mine', { embedding: unitVector(8, 1) }),
          episode(t.id('org-1'), t.org, 'shared', { embedding: unitVector(8, 0, 3) }),
        ],
      });
      const results = await store().episodes.searchVector({ scope: t.alice, vector: query, limit: 10 });
      expect(sorted(results.map((r) => r.episode.id))).toEqual(t.ids('mine-1', 'mine-2', 'org-1'));
      expect(results.map((r) => r.episode.id)).toEqual(t.ids('mine-1', 'org-1', 'mine-2'));
    });

    it('filters by status, time window and access level', async ({ skip }) => {
      skip(!store().capabilities.vectorSearch, SKIP_REASON);
      const t = newTenant();
      const v = unitVector(4, 0);
      await store().episodes.put({
        episodes: [
          episode(t.id('a'), t.alice, 'a', { embedding: v, occurredAt: T0 }),
          episode(t.id('b'), t.alice, 'b', { embedding: v, occurredAt: T0 + DAY, accessLevel: 3 }),
          episode(t.id('c'), t.alice, 'c', { embedding: v, occurredAt: T0 + 2 * DAY, status: 'archived' }),
        ],
      });
      const ids = async (args: Record<string, unknown>) =>
        sorted(
          (await store().episodes.searchVector({ scope: t.alice, vector: v, ...args })).map(
            (r) => r.episode.id,
          ),
        );
      expect(await ids({})).toEqual(t.ids('a', 'b'));
      expect(await ids({ accessLevel: 0 })).toEqual(t.ids('a'));
      expect(await ids({ status: ['archived'] })).toEqual(t.ids('c'));
      expect(await ids({ status: ['active', 'archived'], since: T0 + DAY })).toEqual(t.ids('b', 'c'));
      expect(await ids({ until: T0 })).toEqual(t.ids('a'));
    });
  });
}
