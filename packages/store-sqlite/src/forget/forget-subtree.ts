import type { ForgetCounts, Scope } from '@strata-memory/core/store';
import type { Statements } from '../database/statements.ts';
import { deleteEpisodeRows } from '../episodes/episode-driver.ts';
import type { VectorIndex } from '../episodes/vector-index.ts';
import { type ScopeRow, subtreeClause } from '../sql/scope-sql.ts';

/**
 * Erases every row stored in the subtree of `scope` from every table (right to be forgotten),
 * plus the edges that touch an erased node from outside the subtree. The caller runs it as one
 * write, so it is all or nothing.
 */
export function forgetSubtree(sql: Statements, vectors: VectorIndex, scope: Scope): ForgetCounts {
  const where = subtreeClause(scope);
  const erase = (table: string) => sql.run(`DELETE FROM ${table} WHERE ${where.sql}`, where.params).changes;

  const messages = erase('messages');
  const threads = erase('threads');

  const episodeRows = sql.all<
    ScopeRow & { row_id: number; dimensions: number | null; embedding_norm: number | null }
  >(
    `SELECT row_id, tenant, org_id, user_id, agent_id, thread_id, dimensions, embedding_norm
       FROM episodes WHERE ${where.sql}`,
    where.params,
  );
  deleteEpisodeRows(sql, vectors, episodeRows);

  const facts = erase('facts');
  const doomedNodes = `SELECT id FROM nodes WHERE ${where.sql}`;
  const edges = sql.run(
    `DELETE FROM edges WHERE (${where.sql}) OR from_id IN (${doomedNodes}) OR to_id IN (${doomedNodes})`,
    [...where.params, ...where.params, ...where.params],
  ).changes;
  const nodes = erase('nodes');
  const state = erase('state');
  const ledger = erase('ledger');
  const review = erase('review_items');
  const audit = erase('audit_log');
  return {
    threads,
    messages,
    episodes: episodeRows.length,
    facts,
    nodes,
    edges,
    state,
    ledger,
    review,
    audit,
  };
}
