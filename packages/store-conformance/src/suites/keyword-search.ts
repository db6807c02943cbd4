import type { ScoredEpisode } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { DAY, newTenant, sorted, T0, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';
import { episode } from './episodes.ts';

const SKIP_REASON =
  'the store does not declare keywordSearch; the capabilities suite checks that searchKeyword fails with unsupported';

function expectRanked(results: ScoredEpisode[]): void {
  for (const result of results) expect(result.score).toBeGreaterThan(0);
  for (let i = 1; i < results.length; i++) {
    expect(results[i - 1]!.score).toBeGreaterThanOrEqual(results[i]!.score);
  }
}

export function keywordSearchSuite(options: StoreConformanceOptions): void {
  describe('keyword search', () => {
    const store = useStore(options);

    it('ranks episodes with the query terms above those without, best first', async ({ skip }) => {
      skip(!store().capabilities.keywordSearch, SKIP_REASON);
      const t = newTenant();
      await store().episodes.put({
        episodes: [
          episode(t.id('both'), t.alice, 'The supplier confirmed the lead time is 45 days'),
          episode(t.id('one'), t.alice, 'We called the supplier about the weather'),
          episode(t.id('none'), t.alice, 'Lunch was pasta and salad'),
          episode(t.id('none2'), t.alice, 'The train was late again'),
        ],
      });
      const results = await store().episodes.searchKeyword({ scope: t.alice, query: 'supplier lead time' });
      expectRanked(results);
      expect(results.map((r) => r.episode.id)).toEqual(t.ids('both', 'one'));
      expect(results[0]!.episode.text).toBe('The supplier confirmed the lead time is 45 days');
    });

    it('matches inflected forms of a word (stemming) and ignores case', async ({ skip }) => {
      skip(!store().capabilities.keywordSearch, SKIP_REASON);
      const t = newTenant();
      await store().episodes.put({
        episodes: [
          episode(t.id('k1'), t.alice, 'Three INVOICES were shipped yesterday'),
          episode(t.id('k2'), t.alice, 'Nothing related here'),
        ],
      });
      const results = await store().episodes.searchKeyword({ scope: t.alice, query: 'invoice shipping' });
      expect(results.map((r) => r.episode.id)).toEqual(t.ids('k1'));
    });

    it('treats operator characters and quotes as plain text: no query throws', async ({ skip }) => {
      skip(!store().capabilities.keywordSearch, SKIP_REASON);
      const t = newTenant();
      await store().episodes.put({
        episodes: [episode(t.id('op'), t.alice, 'Invoice 42 for ACME: net 30 terms (draft)')],
      });
      const queries = [
        '"invoice',
        'invoice"',
        '"invoice 42"',
        "acme's invoice",
        'invoice OR',
        'OR AND NOT',
        'NOT invoice',
        '-invoice',
        'invoice*',
        '*',
        'NEAR(invoice acme)',
        'NEAR(',
        'terms:net',
        ':',
        '(draft',
        ')',
        '^invoice',
        '{acme}',
        '[net]',
        '%_\\',
        "'; DROP TABLE episodes; --",
        '',
        '   ',
        '🎉🎉',
      ];
      for (const query of queries) {
        const results = await store().episodes.searchKeyword({ scope: t.alice, query });
        expect(Array.isArray(results), `query ${JSON.stringify(query)}`).toBe(true);
        expectRanked(results);
      }
      for (const query of ['"invoice', 'invoice*', '-invoice', 'NEAR(invoice acme)', 'terms:net', '(draft']) {
        const results = await store().episodes.searchKeyword({ scope: t.alice, query });
        expect(
          results.map((r) => r.episode.id),
          `query ${JSON.stringify(query)} should find the episode`,
        ).toEqual(t.ids('op'));
      }
    });

    it('returns only episodes the reader can see: ancestors yes; siblings and other tenants never', async ({
      skip,
    }) => {
      skip(!store().capabilities.keywordSearch, SKIP_REASON);
      const t = newTenant();
      await store().episodes.put({
        episodes: [
          episode(t.id('org'), t.org, 'quarterly budget review'),
          episode(t.id('alice'), t.alice, 'budget for the offsite'),
          episode(t.id('bob'), t.bob, 'budget budget budget'),
          episode(t.id('alice-thread'), t.aliceThread, 'budget in this thread'),
        ],
      });
      await store().episodes.put({
        episodes: Array.from({ length: 30 }, (_, i) =>
          episode(t.id(`other-${i}`), t.otherOrgAlice, `budget budget ${i}`),
        ),
      });
      const ids = async (scope: typeof t.alice) =>
        sorted(
          (await store().episodes.searchKeyword({ scope, query: 'budget', limit: 100 })).map(
            (r) => r.episode.id,
          ),
        );
      expect(await ids(t.alice)).toEqual(t.ids('alice', 'org'));
      expect(await ids(t.aliceThread)).toEqual(t.ids('alice', 'alice-thread', 'org'));
      expect(await ids(t.bob)).toEqual(t.ids('bob', 'org'));
      expect(await ids(t.org)).toEqual(t.ids('org'));
      expect(await ids(t.bareAlice)).toEqual([]);
    });

    it('filters by status (active by default), time window and access level, and honours limit', async ({
      skip,
    }) => {
      skip(!store().capabilities.keywordSearch, SKIP_REASON);
      const t = newTenant();
      await store().episodes.put({
        episodes: [
          episode(t.id('day1'), t.alice, 'deploy to production', { occurredAt: T0 + DAY }),
          episode(t.id('day2'), t.alice, 'deploy rollback', { occurredAt: T0 + 2 * DAY }),
          episode(t.id('day3'), t.alice, 'deploy freeze', { occurredAt: T0 + 3 * DAY, accessLevel: 2 }),
          episode(t.id('old'), t.alice, 'deploy script archived', { occurredAt: T0, status: 'archived' }),
        ],
      });
      const ids = async (args: Record<string, unknown>) =>
        sorted(
          (await store().episodes.searchKeyword({ scope: t.alice, query: 'deploy', ...args })).map(
            (r) => r.episode.id,
          ),
        );
      expect(await ids({})).toEqual(t.ids('day1', 'day2', 'day3'));
      expect(await ids({ status: ['active', 'archived'] })).toEqual(t.ids('day1', 'day2', 'day3', 'old'));
      expect(await ids({ status: ['archived'] })).toEqual(t.ids('old'));
      expect(await ids({ since: T0 + 2 * DAY })).toEqual(t.ids('day2', 'day3'));
      expect(await ids({ since: T0 + DAY, until: T0 + 2 * DAY })).toEqual(t.ids('day1', 'day2'));
      expect(await ids({ accessLevel: 1 })).toEqual(t.ids('day1', 'day2'));
      expect(await ids({ limit: 2 })).toHaveLength(2);
    });

    it('stops finding an episode once it is deleted', async ({ skip }) => {
      skip(!store().capabilities.keywordSearch, SKIP_REASON);
      const t = newTenant();
      await store().episodes.put({
        episodes: [
          episode(t.id('gone'), t.alice, 'kubernetes upgrade'),
          episode(t.id('kept'), t.alice, 'kubernetes docs'),
        ],
      });
      await store().episodes.delete({ scope: t.alice, ids: t.ids('gone') });
      const results = await store().episodes.searchKeyword({ scope: t.alice, query: 'kubernetes upgrade' });
      expect(results.map((r) => r.episode.id)).toEqual(t.ids('kept'));
    });
  });
}
