import { randomInt } from 'node:crypto';

/** The CTE of `keywordChangesSql` that changes `keyword_stats`, the last rows it locks. */
export const KEYWORD_TOTALS_CTE = 'keyword_totals_changed';

/** Slots per tenant in `keyword_stats`. */
export const KEYWORD_STAT_SLOTS = 8;
/** Slots per tenant and lexeme in `keyword_terms` (fewer: there are many more rows). */
export const KEYWORD_TERM_SLOTS = 4;

/**
 * The CTEs that add the episodes in CTE `source` (columns `tenant_id`, `doc_length`, `search`) to
 * BM25's per-tenant statistics (`sign` 1), or take them out (-1): the episode and term totals in
 * `keyword_stats`, and each lexeme's document count in `keyword_terms`. Put after the CTE that
 * inserts or deletes the episodes, in the same statement, they change exactly when the episodes do
 * (a failed statement changes neither).
 *
 * A writer adds to one random slot of each (a tenant's rows are split in slots that readers sum),
 * so concurrent writers of one tenant rarely wait on the same rows. Within the statement rows are
 * locked in one order (lexemes in sorted order, then the totals), so two writers never wait on each
 * other in a cycle.
 */
export function keywordChangesSql(schema: string, source: string, sign: 1 | -1): string {
  const slot = randomInt(KEYWORD_STAT_SLOTS);
  const count = sign === 1 ? 'count(*)' : '-count(*)';
  const length = sign === 1 ? 'sum(doc_length)' : '-sum(doc_length)';
  return `keyword_terms_changed AS (
      INSERT INTO ${schema}.keyword_terms AS k (tenant_id, lexeme, slot, documents)
      SELECT s.tenant_id, t.lexeme, ${slot % KEYWORD_TERM_SLOTS}, ${count}
        FROM ${source} s CROSS JOIN LATERAL unnest(tsvector_to_array(s.search)) AS t(lexeme)
       GROUP BY s.tenant_id, t.lexeme
       ORDER BY s.tenant_id, t.lexeme
      ON CONFLICT (tenant_id, lexeme, slot) DO UPDATE SET documents = k.documents + EXCLUDED.documents
      RETURNING 1),
    ${KEYWORD_TOTALS_CTE} AS (
      INSERT INTO ${schema}.keyword_stats AS k (tenant_id, slot, documents, terms)
      SELECT tenant_id, ${slot}, ${count}, ${length} FROM ${source}
       WHERE (SELECT count(*) FROM keyword_terms_changed) >= 0
       GROUP BY tenant_id
       ORDER BY tenant_id
      ON CONFLICT (tenant_id, slot) DO UPDATE
         SET documents = k.documents + EXCLUDED.documents, terms = k.terms + EXCLUDED.terms
      RETURNING 1)`;
}
