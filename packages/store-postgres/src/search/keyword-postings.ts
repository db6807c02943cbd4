/**
 * BM25's postings: one row per episode and lexeme in `keyword_postings`, holding the term frequency,
 * the episode's length and the columns a search filters on (scope, status, access level, time).
 * Its primary key leads with (tenant, lexeme, scope), so a search reads each query term's postings
 * in the reader's scopes from the index alone, never the wide episode rows.
 *
 * The rows change exactly when the episodes do: these CTEs go in the statement that inserts,
 * deletes or updates the episodes in CTE `source`.
 */

/**
 * Adds the postings of the episodes in `source` (the columns of `episodes`, `search` included).
 * A lexeme's term frequency is its number of positions, as the tsvector stores them.
 */
export function postingsAddedSql(schema: string, source: string): string {
  return `keyword_postings_added AS (
      INSERT INTO ${schema}.keyword_postings AS k (tenant_id, lexeme, org_id, user_id, agent_id, thread_id, id,
        tf, doc_length, status, access_level, occurred_at)
      SELECT s.tenant_id, u.lexeme, s.org_id, s.user_id, s.agent_id, s.thread_id, s.id,
             cardinality(u.positions), s.doc_length, s.status, s.access_level, s.occurred_at
        FROM ${source} s CROSS JOIN LATERAL unnest(s.search) AS u
      RETURNING 1)`;
}

/** Removes the postings of the episodes in `source` (columns `tenant_id`, `id`). */
export function postingsRemovedSql(schema: string, source: string): string {
  return `keyword_postings_removed AS (
      DELETE FROM ${schema}.keyword_postings k USING ${source} s
       WHERE k.tenant_id = s.tenant_id AND k.id = s.id
      RETURNING 1)`;
}

/** Copies status and time of the episodes in `source` to their postings, where they changed. */
export function postingsChangedSql(schema: string, source: string): string {
  return `keyword_postings_changed AS (
      UPDATE ${schema}.keyword_postings k SET status = s.status, occurred_at = s.occurred_at
        FROM ${source} s
       WHERE k.tenant_id = s.tenant_id AND k.id = s.id
         AND (k.status IS DISTINCT FROM s.status OR k.occurred_at IS DISTINCT FROM s.occurred_at)
      RETURNING 1)`;
}
