import { MAX_HNSW_DIMENSIONS } from './vector-indexes.ts';

/**
 * The vectors an HNSW walk searches: one row per episode with an embedding of at most
 * `MAX_HNSW_DIMENSIONS` values in `episode_vectors`, holding its float4 copy and the columns a
 * search filters on (scope, status, access level, time). The table is partitioned by HASH
 * (tenant_id, user_id), so a user's vectors share one partition, and each partition has its own
 * HNSW index per dimension (search/vector-indexes.ts): a search names its tenant and user by
 * equality, the planner keeps that one partition, and the walk meets the reader's vectors and a
 * sixteenth of the others' instead of every vector of the tenant. In one big tenant, an index over
 * the whole table made a user's walk pass nine other users' entries for each of theirs (see
 * "Vector search and scope filters" in the README).
 *
 * The episodes table keeps its own float4 copy, which the exact search reads through the episodes'
 * scope index; its key (tenant, id) cannot be partitioned by user. The rows here change exactly
 * when the episodes do: these CTEs go in the statement that inserts, deletes or updates the
 * episodes in CTE `source`, as BM25's postings do (search/keyword-postings.ts).
 */

/** Adds the vectors of the episodes in `source` (scope columns, id, dims, status, access level, time, embedding_f4). */
export function vectorsAddedSql(schema: string, source: string): string {
  return `episode_vectors_added AS (
      INSERT INTO ${schema}.episode_vectors (tenant_id, org_id, user_id, agent_id, thread_id, id, dims,
        status, access_level, occurred_at, embedding_f4)
      SELECT tenant_id, org_id, user_id, agent_id, thread_id, id, dims, status, access_level, occurred_at, embedding_f4
        FROM ${source} WHERE dims <= ${MAX_HNSW_DIMENSIONS}
      RETURNING 1)`;
}

/**
 * Removes the vectors of the episodes in `source` (scope columns, id). The partition key's
 * columns are part of the join, so each row is one probe of one partition's key.
 */
export function vectorsRemovedSql(schema: string, source: string): string {
  return `episode_vectors_removed AS (
      DELETE FROM ${schema}.episode_vectors v USING ${source} s
       WHERE v.tenant_id = s.tenant_id AND v.user_id = s.user_id AND v.id = s.id
      RETURNING 1)`;
}

/** Copies status and time of the episodes in `source` to their vectors, where they changed. */
export function vectorsChangedSql(schema: string, source: string): string {
  return `episode_vectors_changed AS (
      UPDATE ${schema}.episode_vectors v SET status = s.status, occurred_at = s.occurred_at
        FROM ${source} s
       WHERE v.tenant_id = s.tenant_id AND v.user_id = s.user_id AND v.id = s.id
         AND (v.status IS DISTINCT FROM s.status OR v.occurred_at IS DISTINCT FROM s.occurred_at)
      RETURNING 1)`;
}
