import { stemmer } from 'stemmer';

/** Stems are cached: the same few thousand words recur across texts, queries and recalls. */
const stems = new Map<string, string>();
const MAX_CACHED_STEMS = 200_000;

/** The Porter stem of a lower-case word (`stemmer`), remembered. */
export function stem(word: string): string {
  let result = stems.get(word);
  if (result === undefined) {
    result = stemmer(word);
    if (stems.size >= MAX_CACHED_STEMS) stems.clear();
    stems.set(word, result);
  }
  return result;
}
