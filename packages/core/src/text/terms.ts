import { stem } from './stem.ts';

/**
 * Index terms for the engine's own lexical scoring (fact relevance, summary salience, redundancy
 * between episodes without embeddings): lower-case words, English stop words removed, Porter stems.
 */

const STOP_WORDS = new Set(
  (
    'a an the and or but if then else of to in on at by for with about against between into through during ' +
    'before after above below from up down out off over under again further once here there when where why how ' +
    'all any both each few more most other some such no nor not only own same so than too very s t can will just ' +
    'don should now i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she ' +
    'her hers herself it its itself they them their theirs themselves what which who whom this that these those am ' +
    'is are was were be been being have has had having do does did doing would could ought im ive id ill youre ' +
    'youve hes shes its were theyre isnt arent wasnt werent hasnt havent hadnt doesnt dont didnt wont wouldnt ' +
    'shouldnt cant cannot couldnt lets thats whats heres theres wheres hows whos also yeah yes oh ok okay hey hi ' +
    'really much many well got get gets like thing things lot lots something anything one ever even still us let'
  ).split(' '),
);

/**
 * Lower-case words (letters and digits). A possessive or contracted "'s" goes ("Caroline's" →
 * "caroline", so a name matches whether or not it is possessive; "it's" → "it"), other
 * apostrophes are dropped ("don't" → "dont").
 */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/(\p{L})['’]s\b/gu, '$1')
      .replace(/['’]/g, '')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** Stemmed content words of `text`, in order, repeats kept. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    if (STOP_WORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

/** Texts kept per generation of the term cache; it holds up to two generations. */
const TERM_CACHE_SIZE = 20_000;
let currentTerms = new Map<string, readonly string[]>();
let previousTerms = new Map<string, readonly string[]>();

/**
 * `contentWords`, remembered for texts seen recently: the same episodes and facts are scored
 * recall after recall. The result is shared: do not mutate it.
 */
export function termsOf(text: string): readonly string[] {
  let terms = currentTerms.get(text);
  if (terms) return terms;
  terms = previousTerms.get(text) ?? contentWords(text);
  if (currentTerms.size >= TERM_CACHE_SIZE) {
    previousTerms = currentTerms;
    currentTerms = new Map();
  }
  currentTerms.set(text, terms);
  return terms;
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word.toLowerCase());
}

/** Each term with the next one (`"support group"`): for phrase matches, which single terms miss. */
export function adjacentPairs(terms: readonly string[]): Set<string> {
  const pairs = new Set<string>();
  for (let i = 1; i < terms.length; i++) pairs.add(`${terms[i - 1]} ${terms[i]}`);
  return pairs;
}

/**
 * How much each query term says about which text the query is after: its inverse document
 * frequency among `texts` (the candidates gathered for the query), BM25's idf
 * `ln((N + 1) / (df + 0.5))`, always above 0. A term most candidates hold (a name the
 * conversation keeps using) separates them less than one few hold.
 */
export function termRarity(
  queryTerms: ReadonlySet<string>,
  texts: Iterable<ReadonlySet<string>>,
): Map<string, number> {
  const df = new Map<string, number>();
  let n = 0;
  for (const terms of texts) {
    n++;
    for (const t of queryTerms) if (terms.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return new Map([...queryTerms].map((t) => [t, Math.log((n + 1) / ((df.get(t) ?? 0) + 0.5))]));
}

/** Jaccard overlap of two term sets, 0..1. */
export function termOverlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared);
}

/**
 * 0..1: the share of the text's content words that sit in sentences ending with a question mark
 * ("What do you enjoy about it?" → 1; "I went hiking with friends. Have you tried climbing?" →
 * 2/5). 0 for a text without content words.
 */
export function questionShare(text: string): number {
  if (!text.includes('?')) return 0;
  let all = 0;
  let asked = 0;
  for (const sentence of text.match(/[^.!?]+(?:[.!?]+|$)/g) ?? []) {
    const n = words(sentence).filter((w) => !isStopWord(w)).length;
    all += n;
    if (/\?\s*$/.test(sentence)) asked += n;
  }
  return all === 0 ? 0 : asked / all;
}
