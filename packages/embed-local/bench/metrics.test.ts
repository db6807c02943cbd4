import { describe, expect, it } from 'vitest';
import { bestThresholdAccuracy, mean, recallAtK, rocAuc } from './metrics.ts';

describe('benchmark metrics', () => {
  it('rocAuc is 1 for perfect separation, 0.5 for ties, 0 when inverted', () => {
    expect(rocAuc([0.9, 0.8, 0.1, 0.2], [true, true, false, false])).toBe(1);
    expect(rocAuc([0.5, 0.5], [true, false])).toBe(0.5);
    expect(rocAuc([0.1, 0.9], [true, false])).toBe(0);
    expect(rocAuc([0.9, 0.3, 0.5, 0.1], [true, true, false, false])).toBe(0.75);
  });

  it('bestThresholdAccuracy finds the separating threshold', () => {
    expect(bestThresholdAccuracy([0.9, 0.7, 0.4, 0.2], [true, true, false, false])).toEqual({
      accuracy: 1,
      threshold: 0.7,
    });
    expect(bestThresholdAccuracy([0.9, 0.3, 0.5, 0.1], [true, true, false, false]).accuracy).toBe(0.75);
  });

  it('recallAtK counts the share of relevant ids in the top k', () => {
    expect(recallAtK(['a', 'b', 'c'], ['a', 'c'], 2)).toBe(0.5);
    expect(recallAtK(['a', 'b', 'c'], ['a', 'c'], 3)).toBe(1);
    expect(recallAtK(['a'], ['missing'], 5)).toBe(0);
    expect(mean([1, 2, 3])).toBe(2);
  });
});

describe('benchmark keyword ranking and fusion', async () => {
  const { bm25Index, reciprocalRankFusion } = await import('./bm25.ts');

  it('bm25 ranks the document sharing the rare query terms first', () => {
    const index = bm25Index(['the cat sat on the mat', 'dogs chase cats', 'supplier lead times are long']);
    expect(index.rank('When is the supplier lead time?')[0]).toBe(2);
    expect(index.rank('chasing dogs')[0]).toBe(1);
  });

  it('weighted reciprocal-rank fusion lets the heavier list win disagreements', () => {
    expect(
      reciprocalRankFusion([
        { ranking: [0, 1], weight: 1 },
        { ranking: [1, 0], weight: 0.5 },
      ])[0],
    ).toBe(0);
    expect(
      reciprocalRankFusion([
        { ranking: [0, 1], weight: 0.5 },
        { ranking: [1, 0], weight: 1 },
      ])[0],
    ).toBe(1);
  });
});
