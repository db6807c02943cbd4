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

/**
 * An expression for the final SELECT of a statement that deletes the episodes in CTE `source`
 * (column `search`): the distinct lexemes they held, as `text[]` (null when none), to pass to
 * `emptyTermsRemovedSql` afterwards.
 */
export function lexemesOfSql(source: string): string {
  return `(SELECT array_agg(DISTINCT t.lexeme) FROM ${source} s
            CROSS JOIN LATERAL unnest(tsvector_to_array(s.search)) AS t(lexeme))`;
}

/**
 * Deletes the `keyword_terms` rows of the tenant's given lexemes whose slots sum to zero: terms
 * no episode holds any more, which would otherwise keep a forgotten user's words in the table
 * (with a count of 0) for good. Run it in a statement after the one that took the episodes out.
 *
 * It locks every slot row of those lexemes first (in key order, as writers lock them) and deletes
 * exactly the rows it locked, of the lexemes whose locked rows sum to zero: a slot row a concurrent
 * writer inserts meanwhile is not among them, so the deleted rows always sum to zero and no count
 * changes.
 */
export function emptyTermsRemovedSql(schema: string, tenant: string, lexemes: string): string {
  return `WITH locked AS (
      SELECT tenant_id, lexeme, slot, documents FROM ${schema}.keyword_terms
       WHERE tenant_id = ${tenant} AND lexeme = ANY(${lexemes})
       ORDER BY tenant_id, lexeme, slot
         FOR UPDATE),
    empty AS (
      SELECT tenant_id, lexeme FROM locked GROUP BY tenant_id, lexeme HAVING sum(documents) = 0)
    DELETE FROM ${schema}.keyword_terms k USING locked l, empty e
     WHERE k.tenant_id = l.tenant_id AND k.lexeme = l.lexeme AND k.slot = l.slot
       AND l.tenant_id = e.tenant_id AND l.lexeme = e.lexeme`;
}
