import { describe, expect, it } from 'vitest';
import { contentWords, termRarity, words } from './terms.ts';

describe('words', () => {
  it("drops a possessive or contracted 's, and other apostrophes", () => {
    expect(words("Caroline's and Mel’s art; don't")).toEqual(['caroline', 'and', 'mel', 'art', 'dont']);
    expect(contentWords("It's Caroline's. Let's go")).toEqual(contentWords('Caroline go'));
  });
});

describe('termRarity', () => {
  it('weighs a query term by its idf among the texts: the fewer hold it, the more it weighs', () => {
    const texts = [['melani', 'potteri'], ['melani'], ['melani', 'walk'], ['walk']].map((t) => new Set(t));
    const weights = termRarity(new Set(['melani', 'potteri', 'violin']), texts);
    expect(weights.get('melani')).toBeCloseTo(Math.log(5 / 3.5), 12);
    expect(weights.get('potteri')).toBeCloseTo(Math.log(5 / 1.5), 12);
    expect(weights.get('violin')).toBeCloseTo(Math.log(5 / 0.5), 12);
    // Held by every text, a term still counts a little.
    expect(termRarity(new Set(['walk']), [new Set(['walk'])]).get('walk')).toBeGreaterThan(0);
  });
});
