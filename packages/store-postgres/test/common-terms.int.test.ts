import { memoryStore, type Scope, type Store } from '@strata-memory/core/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMON_TERM_READ_RATIO } from '../src/driver/episodes.ts';
import { openTarget, type TestTarget } from './target.ts';

/**
 * BM25's common-terms cutoff: in a tenant of at least `commonTermsFrom` episodes, a query term
 * found in more than `commonTermCutoff` of them only adds to the score of episodes holding a rarer
 * query term. The corpus is small, so the tests lower both thresholds: one tenant of 40 episodes,
 * where "harbor" is in 30 (common above a 0.3 cutoff), "lantern" in 20 (common) and "zebra" in 4
 * (rare), each episode also holding a word of its own. Scores must stay the full BM25 of every
 * episode returned, equal to the store without a cutoff and to the in-memory reference store.
 */

const api = { source: 'api' } as const;
const ann: Scope = { orgId: 'acme', userId: 'ann' };
const bob: Scope = { orgId: 'acme', userId: 'bob' };

let target: TestTarget;
let memory: Store;
/** Cutoff 0.3 from 20 episodes on. */
let cutoff: Store;
/** No cutoff: every matching episode scored. */
let full: Store;
/** Cutoff 0.3, but only from 1,000 episodes on: this tenant is too small for it. */
let small: Store;
/** The defaults (a 20,000-episode tenant at least). */
let defaults: Store;

function textOf(i: number): string {
  const words = [`filler${i}`];
  if (i < 30) words.push(i % 5 === 0 ? 'harbor harbor' : 'harbor');
  if (i >= 20) words.push('lantern');
  if ([3, 13, 33, 34].includes(i)) words.push('zebra');
  return words.join(' ');
}

const corpus = Array.from({ length: 40 }, (_, i) => ({
  id: `e${i}`,
  // Zebra episodes: 3 (with harbor), 34 (with lantern), 13 (archived) and 33 (bob's). The rest are ann's.
  scope: i === 33 ? bob : ann,
  text: textOf(i),
  occurredAt: 1_000 + i,
  provenance: api,
  ...(i === 13 ? { status: 'archived' as const } : {}),
}));

beforeAll(async () => {
  target = await openTarget();
  const schema = target.freshSchema('common');
  cutoff = target.openStore({ schema, commonTermCutoff: 0.3, commonTermsFrom: 20 });
  full = target.openStore({ schema, commonTermCutoff: 1 });
  small = target.openStore({ schema, commonTermCutoff: 0.3, commonTermsFrom: 1_000 });
  defaults = target.openStore({ schema });
  memory = memoryStore();
  for (const store of [cutoff, memory]) await store.episodes.put({ episodes: corpus });
});

afterAll(async () => {
  await target.close();
  await memory.close();
});

async function scores(
  store: Store,
  query: string,
  scope: Scope = ann,
  status: Array<'active' | 'archived'> = ['active'],
): Promise<Array<[string, number]>> {
  const hits = await store.episodes.searchKeyword({ scope, query, limit: 100, status });
  return hits.map((hit) => [hit.episode.id, hit.score]);
}

function expectSameScores(actual: Array<[string, number]>, expected: Array<[string, number]>): void {
  expect(actual.map(([id]) => id)).toEqual(expected.map(([id]) => id));
  for (const [i, [id, score]] of actual.entries()) expect(score, id).toBeCloseTo(expected[i]![1], 9);
}

describe('BM25 common terms', () => {
  it('takes candidates from the rare term only, scored with every query term', async () => {
    const found = await scores(cutoff, 'harbor zebra');
    // The zebra episodes ann sees (13 is archived, 33 is bob's), not the 28 others holding harbor.
    expect(found.map(([id]) => id).sort()).toEqual(['e3', 'e34']);
    // Each keeps its whole BM25 score: harbor's part included (e3 holds harbor, e34 does not)...
    const everything = new Map(await scores(full, 'harbor zebra'));
    expect(everything.size).toBe(30);
    for (const [id, score] of found) expect(score, id).toBeCloseTo(everything.get(id)!, 9);
    const reference = new Map(await scores(memory, 'harbor zebra'));
    for (const [id, score] of found) expect(score, id).toBeCloseTo(reference.get(id)!, 9);
    // ...so the zebra episode that also holds harbor ranks first (both are three words long).
    expect(found[0]![0]).toBe('e3');
    expect(found[0]![1]).toBeGreaterThan(found[1]![1]);
  });

  it('adds every common term of the query, with its term frequency', async () => {
    // e3: zebra + harbor; e34: zebra + lantern; e13 (archived): zebra + harbor.
    const found = await scores(cutoff, 'harbor lantern zebra', ann, ['active', 'archived']);
    expect(found.map(([id]) => id).sort()).toEqual(['e13', 'e3', 'e34']);
    const everything = new Map(await scores(full, 'harbor lantern zebra', ann, ['active', 'archived']));
    for (const [id, score] of found) expect(score, id).toBeCloseTo(everything.get(id)!, 9);
    // e0 holds harbor twice and its own rare word: its score counts both harbors.
    const twice = await scores(cutoff, 'harbor filler0 zebra');
    const e0 = twice.find(([id]) => id === 'e0');
    expect(e0, 'filler0 is rare: e0 is a candidate').toBeDefined();
    const e0Full = (await scores(full, 'harbor filler0 zebra')).find(([id]) => id === 'e0')!;
    expect(e0![1]).toBeCloseTo(e0Full[1], 9);
  });

  it('reads a common term whole or looks it up per candidate, with the same scores', async () => {
    // Each filler word is in one episode (e5-e12 are ann's, active, without lantern; e5 holds harbor
    // twice). With one, harbor (30 episodes) and lantern (20) are more than COMMON_TERM_READ_RATIO
    // times as frequent and are looked up per candidate; with `many`, both are read whole.
    expect(20).toBeGreaterThan(COMMON_TERM_READ_RATIO);
    const many = Math.ceil(30 / COMMON_TERM_READ_RATIO);
    const fillers = [5, 6, 7, 8, 9, 10, 11, 12];
    expect(many).toBeLessThanOrEqual(fillers.length);
    for (const rare of [fillers.slice(0, 1), fillers.slice(0, many)]) {
      const query = `harbor lantern ${rare.map((i) => `filler${i}`).join(' ')}`;
      const found = await scores(cutoff, query);
      expect(found.map(([id]) => id).sort(), query).toEqual(rare.map((i) => `e${i}`).sort());
      const everything = new Map(await scores(full, query));
      const reference = new Map(await scores(memory, query));
      for (const [id, score] of found) {
        expect(score, `${query}: ${id}`).toBeCloseTo(everything.get(id)!, 9);
        expect(score, `${query}: ${id}`).toBeCloseTo(reference.get(id)!, 9);
      }
    }
  });

  it('keeps the filters and scopes of the search for candidates', async () => {
    expect((await scores(cutoff, 'harbor zebra', bob)).map(([id]) => id)).toEqual(['e33']);
    const archived = await scores(cutoff, 'harbor zebra', ann, ['archived']);
    expect(archived.map(([id]) => id)).toEqual(['e13']);
    const since = await cutoff.episodes.searchKeyword({
      scope: ann,
      query: 'harbor zebra',
      limit: 10,
      since: 1_010,
    });
    expect(since.map((hit) => hit.episode.id)).toEqual(['e34']);
  });

  it('scores every match when every query term is common', async () => {
    const found = await scores(cutoff, 'harbor lantern');
    expect(found).toHaveLength(38);
    expectSameScores(found, await scores(full, 'harbor lantern'));
    expectSameScores(found, await scores(memory, 'harbor lantern'));
  });

  it('changes nothing in a tenant smaller than commonTermsFrom, or with the default thresholds', async () => {
    for (const query of ['harbor zebra', 'harbor lantern zebra', 'lantern filler7', 'harbor']) {
      const expected = await scores(full, query);
      expect(expected.length, query).toBeGreaterThan(0);
      expectSameScores(await scores(small, query), expected);
      expectSameScores(await scores(defaults, query), expected);
    }
    // And the cutoff store does change this one, so the comparison above compares something.
    expect((await scores(cutoff, 'harbor zebra')).length).toBeLessThan(
      (await scores(full, 'harbor zebra')).length,
    );
  });

  it('rejects a cutoff outside (0, 1]', () => {
    expect(() => target.openStore({ commonTermCutoff: 0 })).toThrow();
    expect(() => target.openStore({ commonTermCutoff: 1.5 })).toThrow();
    expect(() => target.openStore({ commonTermsFrom: -1 })).toThrow();
  });
});
