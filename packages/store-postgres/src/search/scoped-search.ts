import { type Scope, visibleScopeRows } from '@strata-memory/core/store';
import type { Params } from '../sql/params.ts';

/**
 * Keyword matches confined to the reader's scopes inside the full-text index itself.
 *
 * The episodes' GIN index is built on their `search` tsvector plus one extra lexeme naming the
 * row's exact scope: `!` and the md5 of its five scope columns joined by U+001F (the analyzer never
 * makes a lexeme with `!`). A search ANDs its terms with an OR of the lexemes of every scope the
 * reader may see (at most 8), so one index scan yields exactly the reader's matching episodes, and
 * only those rows are read: in a tenant of ten users, a tenth of the tenant's matches. PostgreSQL
 * computes the md5 on both sides, so ids in any encoding agree.
 */

/** The indexed expression; a query must repeat it exactly for the index to serve it. */
export function scopedSearchSql(alias?: string): string {
  const c = (name: string) => (alias ? `${alias}.${name}` : name);
  const key = ['tenant_id', 'org_id', 'user_id', 'agent_id', 'thread_id'].map(c).join(` || E'\\x1f' || `);
  return `(${c('search')} || array_to_tsvector(ARRAY['!' || md5(${key})]))`;
}

/** A tsquery (computed by the server) matching the scope lexeme of any scope `scope` may see. */
export function visibleScopesQuerySql(scope: Scope, p: Params): string {
  const rows = visibleScopeRows(scope);
  const columns = [0, 1, 2, 3, 4].map((i) => p.texts(rows.map((row) => row[i]!)));
  return `(SELECT string_agg(quote_literal('!' || md5(t || E'\\x1f' || o || E'\\x1f' || u || E'\\x1f' || a || E'\\x1f' || th)), ' | ')::tsquery
     FROM unnest(${columns.join(', ')}) AS s(t, o, u, a, th))`;
}
