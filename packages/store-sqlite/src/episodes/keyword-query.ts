import { ENGLISH_STOP_WORDS, type Scope, visibleScopeRows } from '@strata-memory/core/store';

/**
 * How text meets the FTS5 index. The index tokenizes with `porter unicode61` (Porter stemming,
 * case and diacritics folded); this module does the rest of the work core's keyword analyzer does,
 * so keyword search finds the same episodes on every driver:
 *
 * - Scripts written without spaces (Han, Hiragana, Katakana) are indexed one character per term,
 *   so a word inside a sentence still matches.
 * - A query is plain text: its words become quoted FTS5 strings joined with OR, so quotes, `*`,
 *   `OR`, `NEAR`, `-`, `:` and parentheses are literal text, never syntax, and nothing throws.
 * - English stop words (core's list, the one every driver drops) are dropped from the query; a
 *   query of stop words alone matches nothing.
 */

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const LATIN_DIACRITICS = /[\u0300-\u036f]/g;
const UNSPACED_CHARACTER = /([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu;

/** Compatibility forms folded, Latin diacritics removed, unspaced scripts spaced out. */
function foldForIndex(text: string): string {
  return text.normalize('NFKD').replace(LATIN_DIACRITICS, '').replace(UNSPACED_CHARACTER, ' $1 ');
}

/**
 * The text the FTS index should read for an episode, when it differs from the episode's text
 * (compatibility characters, decomposable diacritics, unspaced scripts); otherwise undefined, and
 * the index reads the text itself.
 */
export function searchTextOf(text: string): string | undefined {
  const folded = foldForIndex(text);
  return folded === text ? undefined : folded;
}

/** The query's words, lower-cased and folded, stop words dropped, each once. */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const match of foldForIndex(query).toLowerCase().matchAll(WORD)) {
    if (!ENGLISH_STOP_WORDS.has(match[0])) terms.add(match[0]);
  }
  return [...terms];
}

/**
 * The one-token form of an exact scope that the index stores beside each episode's text (the
 * same as the schema's SQL expression): `s`, the hex of the five scope columns joined by U+001F,
 * and a final `0` so the Porter stemmer leaves the token alone.
 */
export function scopeToken(columns: readonly string[]): string {
  return `s${Buffer.from(columns.join('\u001f'), 'utf8').toString('hex')}0`;
}

/** The tokens of every exact scope a read at `scope` may see (at most 8). */
export function visibleScopeTokens(scope: Scope): string[] {
  return visibleScopeRows(scope).map(scopeToken);
}

/**
 * The FTS5 MATCH expression for a plain-text query read at `scope`, or undefined when the query
 * has no searchable term. Terms hold only letters, marks and digits, and scope tokens only hex
 * digits, so quoting them is safe.
 */
export function matchExpression(query: string, scope: Scope): string | undefined {
  const terms = queryTerms(query);
  return terms.length === 0 ? undefined : termsMatchExpression(terms, scope);
}

/**
 * The FTS5 MATCH expression for query terms (from `queryTerms`, at least one) read at `scope`, or
 * over every scope when `scope` is undefined (for a reader whose scopes hold the whole index: the
 * caller's filter still checks each row). The scope column weighs 0 in BM25 and a row's length
 * counts every column either way, so both rank alike.
 */
export function termsMatchExpression(terms: readonly string[], scope: Scope | undefined): string {
  const body = `body : (${terms.map((term) => `"${term}"`).join(' OR ')})`;
  if (!scope) return body;
  const scopes = visibleScopeTokens(scope).map((token) => `"${token}"`);
  return `scope_key : (${scopes.join(' OR ')}) AND ${body}`;
}
