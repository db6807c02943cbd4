import { describe, expect, it } from 'vitest';
import { topK } from './top-k.ts';

describe('topK', () => {
  it('returns the k best, best first, ties by id', () => {
    const items = [
      { id: 'd', score: 0.5 },
      { id: 'a', score: 0.9 },
      { id: 'c', score: 0.5 },
      { id: 'b', score: 0.1 },
      { id: 'e', score: 0.95 },
    ];
    expect(topK(items, 3).map((i) => i.id)).toEqual(['e', 'a', 'c']);
    expect(topK(items, 10).map((i) => i.id)).toEqual(['e', 'a', 'c', 'd', 'b']);
    expect(topK(items, 0)).toEqual([]);
  });

  it('agrees with a full sort on a large random input', () => {
    const items = Array.from({ length: 5000 }, (_, i) => ({
      id: `id${i}`,
      score: Math.round(Math.sin(i) * 50),
    }));
    const expected = [...items]
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, 37)
      .map((i) => i.id);
    expect(topK(items, 37).map((i) => i.id)).toEqual(expected);
  });
});
