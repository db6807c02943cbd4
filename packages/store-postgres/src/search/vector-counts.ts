import { randomInt } from 'node:crypto';
import type { Scope } from '@strata-memory/core/store';
import type { Params } from '../sql/params.ts';
import { visibleSql } from '../sql/scope-filter.ts';
import { KEYWORD_TOTALS_CTE } from './keyword-stats.ts';

/** Slots per scope and dimension in `vector_counts` (a writer adds to a random one). */
export const VECTOR_COUNT_SLOTS = 4;

/**
 * How many episodes with an embedding of each size every exact scope holds, kept in
 * `vector_counts` so a vector search can choose between the exact answer and the HNSW walk
 * without reading a row of `episodes` (see "Vector search and scope filters" in the README).
 *
 * The count is of every status: an upper bound on what a search's filters let through, which only
 * steers the choice. Counted low, a search is answered exactly (right, if slower); counted high, the
 * walk may come up short, and then the exact query answers (see driver/episodes.ts).
 */

/**
 * The CTE that adds the episodes in CTE `source` (scope columns and `dims`) to their scopes' counts
 * (`sign` 1) or takes them out (-1), for the statement that inserts or deletes them. It runs after
 * `keywordChangesSql`'s CTEs (BM25's statistics, whose rows the same statement locks), which the
 * statement must hold too, so every writer locks rows in one order: the statistics, then these
 * counts, by scope.
 */
export function vectorCountChangesSql(schema: string, source: string, sign: 1 | -1): string {
  const count = sign === 1 ? 'count(*)' : '-count(*)';
  return `vector_counts_changed AS (
      INSERT INTO ${schema}.vector_counts AS c (tenant_id, org_id, user_id, agent_id, thread_id, dims, slot, episodes)
      SELECT tenant_id, org_id, user_id, agent_id, thread_id, dims, ${randomInt(VECTOR_COUNT_SLOTS)}, ${count}
        FROM ${source}
       WHERE dims IS NOT NULL AND (SELECT count(*) FROM ${KEYWORD_TOTALS_CTE}) >= 0
       GROUP BY tenant_id, org_id, user_id, agent_id, thread_id, dims
       ORDER BY tenant_id, org_id, user_id, agent_id, thread_id, dims
      ON CONFLICT (tenant_id, org_id, user_id, agent_id, thread_id, dims, slot)
         DO UPDATE SET episodes = c.episodes + EXCLUDED.episodes
      RETURNING 1)`;
}

/**
 * A scalar subquery: the episodes with `dims`-long embeddings in the scopes a read at `scope` sees
 * (with `user`, only those at that user-level value: see `visibleSql`).
 */
export function visibleVectorCountSql(
  schema: string,
  scope: Scope,
  dims: number,
  params: Params,
  user?: string,
): string {
  return `(SELECT COALESCE(sum(episodes), 0) FROM ${schema}.vector_counts
            WHERE ${visibleSql(scope, params, undefined, user)} AND dims = ${params.add(dims)})`;
}

/**
 * How much more an HNSW walk pays per index entry it visits than the exact search pays per
 * candidate row it reads, in the rule below: fitted where the two cost the same in an index of
 * 1,000,000 (scopes of about 10,000, limit 60; `bench:exact-or-walk`, see the README).
 */
export const WALK_COST_RATIO = 1.7;

/**
 * A scalar expression: the most candidates a search of `limit` rows answers exactly. A walk for a
 * scope of `n` candidates among an index of `T` entries visits about `limit × T / n` of them (only
 * one in `T / n` is the reader's), while the exact search reads the `n` rows; the exact search is
 * the cheaper while `n² ≤ ratio × limit × T`. The bound is that square root, but never below
 * `floor` (`exactSearchBelow`: below it the exact answer is kept for its exactness, however big
 * the index). `entries` is `T`, an SQL expression (the planner's count of the entries of the index
 * the walk would take: `partitionEntriesSql`).
 */
export function exactBoundSql(entries: string, limit: number, floor: number, params: Params): string {
  return `GREATEST(${params.add(floor)}::float8, sqrt(${WALK_COST_RATIO} * ${params.add(limit)}::float8 * COALESCE(${entries}, 0)))`;
}
