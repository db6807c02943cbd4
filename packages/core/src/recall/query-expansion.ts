import { stemmer } from 'stemmer';
import { contentWords, isStopWord, words } from './terms.ts';

/**
 * Pseudo-relevance feedback (RM3-style): the best first-round candidates are assumed relevant,
 * and the words they share that the query lacks (weighted by how strongly each candidate matched,
 * how much of the candidate the word is, and how rare the word is among all candidates) are added
 * to the query for a second keyword search. It finds turns that answer the question in other
 * words than the question's ("recipes" → the ice cream and the cake the person made), and, since
 * proper names weigh as any rare word, turns about the entities the first hits name (multi-hop).
 */
export interface FeedbackDoc {
  text: string;
  /** How strongly it matched the query (any positive scale). */
  weight: number;
}

/** Feedback words are at least this long (shorter ones are mostly fillers and pronouns). */
const MIN_WORD_LENGTH = 3;

export function expansionTerms(args: {
  query: string;
  /** The best first-round candidates, best first. */
  feedback: FeedbackDoc[];
  /** Texts of every first-round candidate, for how rare a word is among them. */
  collection: string[];
  /** Most words returned. */
  terms: number;
}): string[] {
  if (args.terms <= 0 || args.feedback.length === 0) return [];
  const queryStems = new Set(contentWords(args.query));
  const df = new Map<string, number>();
  for (const text of args.collection)
    for (const stem of new Set(stemsOf(text).keys())) df.set(stem, (df.get(stem) ?? 0) + 1);
  const n = Math.max(1, args.collection.length);
  const top = Math.max(...args.feedback.map((d) => d.weight));
  if (!(top > 0)) return [];
  const weights = new Map<string, number>();
  const surface = new Map<string, string>();
  const docs = new Map<string, number>();
  for (const doc of args.feedback) {
    const stems = stemsOf(doc.text);
    const length = [...stems.values()].reduce((sum, s) => sum + s.count, 0);
    if (length === 0) continue;
    for (const [stem, { count, word }] of stems) {
      if (queryStems.has(stem)) continue;
      const idf = Math.log(1 + n / (df.get(stem) ?? 1));
      weights.set(stem, (weights.get(stem) ?? 0) + (doc.weight / top) * (count / length) * idf);
      docs.set(stem, (docs.get(stem) ?? 0) + 1);
      if (!surface.has(stem)) surface.set(stem, word);
    }
  }
  return [...weights.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, args.terms)
    .map(([stem]) => surface.get(stem)!);
}

/** Content words of a text by stem, with their count and first surface form. */
function stemsOf(text: string): Map<string, { count: number; word: string }> {
  const out = new Map<string, { count: number; word: string }>();
  for (const word of words(text)) {
    if (word.length < MIN_WORD_LENGTH || isStopWord(word) || /^\d+$/.test(word)) continue;
    const stem = stemmer(word);
    const held = out.get(stem);
    if (held) held.count++;
    else out.set(stem, { count: 1, word });
  }
  return out;
}
