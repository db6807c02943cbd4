import { describe, expect, it } from 'vitest';
import { contentWords, words } from './terms.ts';

describe('words', () => {
  it("drops a possessive or contracted 's, and other apostrophes", () => {
    expect(words("Caroline's and Mel’s art; don't")).toEqual(['caroline', 'and', 'mel', 'art', 'dont']);
    expect(contentWords("It's Caroline's. Let's go")).toEqual(contentWords('Caroline go'));
  });
});
