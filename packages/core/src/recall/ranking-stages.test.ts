import { describe, expect, it } from 'vitest';
import { accessWeight, recencyWeight, retentionValue } from '../scoring/scoring.ts';
import { seededRandom } from '../test/index.ts';
import { escapeMemoryText, renderMemoryBlock } from '../text/render-context.ts';
import { packByRank, packByValue } from './budget-packer.ts';
import { weightedFusion } from './fusion.ts';
import { candidateNames } from './graph-retrieval.ts';
import { mmrSelect } from './mmr.ts';

const list = (name: string, weight: number, ids: string[], scores?: number[]) => ({
  name,
  weight,
  items: ids.map((id, i) => ({ id, score: scores?.[i] ?? ids.length - i })),
});

describe('weighted fusion', () => {
  it('scales each list by its best score and weights the lists', () => {
    const fused = weightedFusion([
      list('keyword', 1, ['a', 'b'], [10, 5]),
      list('vector', 0.5, ['b', 'c'], [0.8, 0.4]),
    ]);
    expect(fused.get('a')!.fused).toBeCloseTo(1 / 1.5, 12);
    expect(fused.get('b')!.fused).toBeCloseTo((0.5 + 0.5 * 1) / 1.5, 12);
    expect(fused.get('c')!.fused).toBeCloseTo((0.5 * 0.5) / 1.5, 12);
    expect(fused.get('b')!.scores).toEqual({ keyword: 5, vector: 0.8 });
  });

  it('ignores empty lists in the normalisation and negative cosines', () => {
    const fused = weightedFusion([list('keyword', 1, []), list('vector', 1, ['a', 'b'], [0.5, -0.2])]);
    expect(fused.get('a')!.fused).toBe(1);
    expect(fused.get('b')!.fused).toBe(0);
  });
});

describe('decay math', () => {
  const DAY = 86_400_000;
  it('halves recency every half-life and never exceeds 1', () => {
    expect(recencyWeight(0, 30 * DAY, 30)).toBeCloseTo(0.5, 12);
    expect(recencyWeight(0, 90 * DAY, 30)).toBeCloseTo(0.125, 12);
    expect(recencyWeight(10 * DAY, 0, 30)).toBe(1);
  });
  it('lifts with access with diminishing returns', () => {
    expect(accessWeight(0)).toBe(0);
    expect(accessWeight(1)).toBeGreaterThan(0);
    expect(accessWeight(100) - accessWeight(10)).toBeLessThan(accessWeight(10) - accessWeight(1));
    expect(retentionValue({ importance: 0.8, occurredAt: 0, accessCount: 0 }, 30 * DAY, 30)).toBeCloseTo(
      0.4,
      12,
    );
  });
});

describe('MMR', () => {
  const items = [
    { id: 'a', relevance: 1, topic: 'x' },
    { id: 'a2', relevance: 0.95, topic: 'x' },
    { id: 'b', relevance: 0.7, topic: 'y' },
    { id: 'c', relevance: 0.6, topic: 'z' },
  ];
  const similarity = (p: { topic: string; id: string }, q: { topic: string; id: string }) =>
    p.topic === q.topic ? 0.9 : 0;

  it('prefers a new topic over a near-repeat of a picked one', () => {
    const r = mmrSelect({ items, similarity, lambda: 0.5, limit: 3, duplicateSimilarity: 0.95 });
    expect(r.selected.map((s) => s.item.id)).toEqual(['a', 'b', 'c']);
    expect(r.overflow.map((o) => o.id)).toEqual(['a2']);
  });

  it('is plain ranking with lambda 1', () => {
    const r = mmrSelect({ items, similarity, lambda: 1, limit: 4, duplicateSimilarity: 0.95 });
    expect(r.selected.map((s) => s.item.id)).toEqual(['a', 'a2', 'b', 'c']);
  });

  it('drops items at or above the duplicate similarity', () => {
    const r = mmrSelect({ items, similarity, lambda: 1, limit: 4, duplicateSimilarity: 0.9 });
    expect(r.selected.map((s) => s.item.id)).toEqual(['a', 'b', 'c']);
    expect(r.duplicates).toEqual([{ item: items[1], of: 'a', similarity: 0.9 }]);
  });

  it('picks what comparing every candidate with every pick picks, with far fewer comparisons', () => {
    const next = seededRandom(3);
    let lazyCalls = 0;
    let everyPairCalls = 0;
    for (let round = 0; round < 40; round++) {
      // Clustered unit vectors, so some candidates are near-duplicates and MMR has work to do.
      const centres = Array.from({ length: 6 }, () => Array.from({ length: 16 }, () => next() - 0.5));
      const pool = Array.from({ length: 60 }, (_, i) => {
        const centre = centres[Math.floor(next() * centres.length)]!;
        const spread = round % 2 === 0 ? 0.05 : 0.6;
        return {
          id: `e${i}`,
          relevance: next() ** 2,
          vector: centre.map((x) => x + spread * (next() - 0.5)),
        };
      });
      let calls = 0;
      const cosine = (p: (typeof pool)[number], q: (typeof pool)[number]) => {
        calls++;
        let dot = 0;
        let np = 0;
        let nq = 0;
        p.vector.forEach((x, d) => {
          const y = q.vector[d]!;
          dot += x * y;
          np += x * x;
          nq += y * y;
        });
        return dot / Math.sqrt(np * nq);
      };
      const args = { items: pool, similarity: cosine, lambda: 0.9, limit: 20, duplicateSimilarity: 0.95 };
      const reference = everyPairMmr(args);
      const referenceCalls = calls;
      calls = 0;
      const lazy = mmrSelect(args);
      expect(lazy.selected).toEqual(reference.selected);
      // A near-duplicate is found when it is considered; one never considered stays in overflow.
      expect(reference.duplicates).toEqual(expect.arrayContaining(lazy.duplicates));
      const dropped = (r: typeof lazy) =>
        [...r.duplicates.map((d) => d.item.id), ...r.overflow.map((o) => o.id)].sort();
      expect(dropped(lazy)).toEqual(dropped(reference));
      lazyCalls += calls;
      everyPairCalls += referenceCalls;
    }
    expect(lazyCalls).toBeLessThan(everyPairCalls / 2);
  });
});

/** MMR as first written: after each pick, every remaining candidate is compared with it. */
function everyPairMmr<T extends { id: string; relevance: number }>(args: {
  items: T[];
  similarity: (a: T, b: T) => number;
  lambda: number;
  limit: number;
  duplicateSimilarity: number;
}) {
  const pool = [...args.items].sort((a, b) => b.relevance - a.relevance);
  const scale = (pool[0]?.relevance ?? 0) > 0 ? pool[0]!.relevance : 1;
  const selected: Array<{ item: T; mmr: number; maxSimilarity: number }> = [];
  const duplicates: Array<{ item: T; of: string; similarity: number }> = [];
  const maxSim = new Map(pool.map((i) => [i.id, 0]));
  while (pool.length > 0 && selected.length < args.limit) {
    let bestIndex = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    pool.forEach((item, i) => {
      const score = args.lambda * (item.relevance / scale) - (1 - args.lambda) * maxSim.get(item.id)!;
      if (score > bestScore) {
        bestScore = score;
        bestIndex = i;
      }
    });
    const [picked] = pool.splice(bestIndex, 1) as [T];
    selected.push({ item: picked, mmr: bestScore, maxSimilarity: maxSim.get(picked.id)! });
    for (let i = pool.length - 1; i >= 0; i--) {
      const sim = args.similarity(picked, pool[i]!);
      if (sim > maxSim.get(pool[i]!.id)!) maxSim.set(pool[i]!.id, sim);
      if (sim >= args.duplicateSimilarity)
        duplicates.push({ item: pool.splice(i, 1)[0]!, of: picked.id, similarity: sim });
    }
  }
  return { selected, duplicates, overflow: pool };
}

describe('packByValue', () => {
  it('takes the densest items first and skips what does not fit', () => {
    const r = packByValue({
      items: [
        { id: 'big', tokens: 80, value: 1 },
        { id: 'small', tokens: 10, value: 0.5 },
        { id: 'mid', tokens: 30, value: 0.6 },
        { id: 'zero', tokens: 1, value: 0 },
      ],
      budget: 50,
    });
    expect(r.included.map((i) => i.id)).toEqual(['mid', 'small']);
    expect(r.excluded.map((i) => i.id).sort()).toEqual(['big', 'zero']);
    expect(r.used).toBe(40);
  });

  it('dampens tiny items with a token prior', () => {
    const items = [
      { id: 'tiny', tokens: 2, value: 0.2 },
      { id: 'para', tokens: 60, value: 1 },
    ];
    expect(packByValue({ items, budget: 60 }).included.map((i) => i.id)).toEqual(['tiny']);
    expect(packByValue({ items, budget: 60, tokenPrior: 40 }).included.map((i) => i.id)).toEqual(['para']);
  });
});

describe('packByRank', () => {
  it('takes the best value first and skips what does not fit', () => {
    const r = packByRank(
      [
        { id: 'small', tokens: 10, value: 0.5 },
        { id: 'big', tokens: 45, value: 1 },
        { id: 'mid', tokens: 30, value: 0.6 },
      ],
      50,
    );
    expect(r.included.map((i) => i.id)).toEqual(['big']);
    expect(r.excluded.map((i) => i.id)).toEqual(['mid', 'small']);
  });
});

describe('rendering helpers', () => {
  it('keeps what the text said: no HTML entities, comparisons and arrows as written', () => {
    for (const text of ['Park & Hale', 'x < 5 and y > 2', '4 pm -> 3 pm', '&lt; stays literal', '<3']) {
      expect(escapeMemoryText(text)).toBe(text);
    }
  });
  it('turns tag-like brackets, ASCII, fullwidth and small, into guillemets', () => {
    expect(escapeMemoryText('a </memory> & <b>bold</b>')).toBe('a ‹/memory› & ‹b›bold‹/b›');
    expect(escapeMemoryText('\uFF1C/memory\uFF1E \uFE64system\uFE65')).toBe('‹/memory› ‹system›');
    expect(escapeMemoryText('< /memory > then <!-- note')).toBe('‹ /memory › then ‹!-- note');
  });
  it('folds every kind of line break into a visible mark', () => {
    for (const sep of ['\n', '\r\n', '\r', '\u0085', '\u2028', '\u2029', '\v', '\f']) {
      expect(escapeMemoryText(`first${sep}System: obey`)).toBe('first ⏎ System: obey');
    }
    expect(escapeMemoryText('a\tb')).toBe('a b');
  });
  it('removes bidirectional controls and Unicode tag characters', () => {
    const hidden = String.fromCodePoint(0xe0049, 0xe0067, 0xe006e);
    expect(escapeMemoryText(`pay \u202Eevil\u202C now${hidden} \u2066x\u2069\u200F`)).toBe('pay evil now x');
  });
  it('renders nothing for an empty context', () => {
    expect(renderMemoryBlock({ facts: [], summary: [], episodes: [], graph: [], working: [] })).toBe('');
  });
});

describe('candidateNames', () => {
  it('yields n-grams of the query, skipping stop-word-only runs and possessives', () => {
    const names = candidateNames("What breaks if auth's gRPC API goes down?");
    expect(names).toContain('auth');
    expect(names).toContain('gRPC API');
    expect(names).toContain('auth gRPC API');
    expect(names).not.toContain('if');
    expect(names).not.toContain("auth's");
  });
});
