import { stemmer } from 'stemmer';

/**
 * A plain BM25 ranker (k1 1.2, b 0.75) over stemmed, lower-cased words without common stop words:
 * the keyword half of the engine's hybrid search, rebuilt here so the benchmark can show what each
 * embedder adds on top of it. Not the engine's exact scoring.
 */

const STOP_WORDS = new Set(
  (
    'a an the and or but if of to in on at by for with about from up out over into than then so as is are was ' +
    'were be been being have has had do does did i me my we our you your he him his she her it its they them ' +
    'their what which who whom this that these those am will would can could should just not no yes oh hey'
  ).split(' '),
);

export function bm25Terms(text: string): string[] {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .replace(/['’]/g, '')
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((word) => !STOP_WORDS.has(word)).map((word) => stemmer(word));
}

export interface Bm25Index {
  /** Document indices, best first (every document, ties in document order). */
  rank(query: string): number[];
}

export function bm25Index(documents: string[], k1 = 1.2, b = 0.75): Bm25Index {
  const docs = documents.map((text) => {
    const counts = new Map<string, number>();
    const terms = bm25Terms(text);
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    return { counts, length: terms.length };
  });
  const averageLength = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, docs.length);
  const documentFrequency = new Map<string, number>();
  for (const doc of docs)
    for (const term of doc.counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  return {
    rank(query) {
      const terms = [...new Set(bm25Terms(query))];
      const scores = docs.map((doc) => {
        let score = 0;
        for (const term of terms) {
          const tf = doc.counts.get(term);
          if (!tf) continue;
          const df = documentFrequency.get(term)!;
          const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
          score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / averageLength));
        }
        return score;
      });
      return scores
        .map((score, index) => ({ score, index }))
        .sort((x, y) => y.score - x.score || x.index - y.index)
        .map((s) => s.index);
    },
  };
}

/**
 * Weighted reciprocal-rank fusion of rankings (lists of document indices, best first): each list
 * adds weight / (k + rank) to a document's score.
 */
export function reciprocalRankFusion(
  rankings: Array<{ ranking: number[]; weight: number }>,
  k = 60,
): number[] {
  const scores = new Map<number, number>();
  for (const { ranking, weight } of rankings) {
    for (const [position, index] of ranking.entries()) {
      scores.set(index, (scores.get(index) ?? 0) + weight / (k + position + 1));
    }
  }
  return [...scores].sort((x, y) => y[1] - x[1] || x[0] - y[0]).map(([index]) => index);
}
