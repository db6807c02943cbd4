import { analyzeText } from '@strata-memory/core/store';

/** PostgreSQL's tsvector limits: positions run 1..16383, at most 256 per lexeme, lexemes < 2 KiB. */
const MAX_POSITION = 16_383;
const MAX_POSITIONS_PER_LEXEME = 256;
const MAX_LEXEME_BYTES = 2_046;

/** A lexeme in tsvector/tsquery input syntax: single-quoted, quotes doubled, backslashes escaped. */
function quoteLexeme(term: string): string {
  return `'${term.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

function fits(term: string): boolean {
  return Buffer.byteLength(term, 'utf8') <= MAX_LEXEME_BYTES;
}

/**
 * An episode's text as tsvector input, each analyzed term with its word positions (so
 * `ts_rank_cd` can measure how close matched terms are, and BM25 can count them), the number of
 * terms (BM25's document length) and its distinct lexemes (for BM25's document frequencies).
 * Positions past PostgreSQL's limits are clamped or dropped, as `to_tsvector` does.
 */
export function documentVector(text: string): { vector: string; length: number; lexemes: string[] } {
  const terms = analyzeText(text);
  const positions = new Map<string, number[]>();
  terms.forEach((term, index) => {
    if (!fits(term)) return;
    let list = positions.get(term);
    if (!list) {
      list = [];
      positions.set(term, list);
    }
    const position = Math.min(index + 1, MAX_POSITION);
    if (list.length < MAX_POSITIONS_PER_LEXEME && list[list.length - 1] !== position) list.push(position);
  });
  return {
    vector: [...positions].map(([term, list]) => `${quoteLexeme(term)}:${list.join(',')}`).join(' '),
    length: terms.length,
    lexemes: [...positions.keys()],
  };
}

/** The distinct terms of a plain-text query that can be searched for. */
export function queryTerms(query: string): string[] {
  return [...new Set(analyzeText(query))].filter(fits);
}

/**
 * Query terms as a tsquery matching any of them (`'a' | 'b'`), or undefined when there are none
 * (the query held only stop words or punctuation). Operator characters are never interpreted:
 * only analyzed terms reach PostgreSQL, each quoted.
 */
export function anyTermQuery(terms: readonly string[]): string | undefined {
  return terms.length === 0 ? undefined : terms.map(quoteLexeme).join(' | ');
}
