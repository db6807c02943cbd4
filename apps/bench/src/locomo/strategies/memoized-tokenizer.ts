import type { Tokenizer } from '@strata-memory/core';

/**
 * The same tokenizer, remembering counts by text. Baselines pack the same turn lines for every
 * question and budget of a conversation; counting each once keeps the harness's own work out of
 * the way. Make one per conversation (it holds every text it counted).
 */
export function memoizedTokenizer(tokenizer: Tokenizer): Tokenizer {
  const counts = new Map<string, number>();
  return {
    specificationVersion: tokenizer.specificationVersion,
    id: tokenizer.id,
    count(text) {
      let n = counts.get(text);
      if (n === undefined) {
        n = tokenizer.count(text);
        counts.set(text, n);
      }
      return n;
    },
    truncate: (text, maxTokens) => tokenizer.truncate(text, maxTokens),
  };
}
