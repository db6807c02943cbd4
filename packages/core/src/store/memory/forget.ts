import { isInSubtree, type Scope, tenantOf } from '../../scope/scope.ts';
import type { ForgetCounts } from '../contract.ts';
import type { Table } from './table.ts';
import { compositeKey, exactScopeKey, type MemoryTables } from './tables.ts';

/** Deletes the rows of `table` in the subtree of `scope`; returns how many. */
function eraseSubtree<R>(
  table: Table<R>,
  scope: Scope,
  scopeOf: (row: R) => Scope,
  keyOf: (row: R) => string,
) {
  const doomed = [...table.tenantRows(tenantOf(scope))].filter((row) => isInSubtree(scopeOf(row), scope));
  for (const row of doomed) table.delete(keyOf(row));
  return doomed.length;
}

/**
 * Erases every row stored in the subtree of `scope` from every table, plus the edges that touch
 * an erased node from outside the subtree (an edge never outlives one of its ends).
 */
export function forgetSubtree(tables: MemoryTables, scope: Scope): ForgetCounts {
  const messages = eraseSubtree(
    tables.messages,
    scope,
    (m) => m.scope,
    (m) => compositeKey(exactScopeKey(m.scope), m.id),
  );
  const threads = eraseSubtree(
    tables.threads,
    scope,
    (t) => t.record.scope,
    (t) => exactScopeKey(t.record.scope),
  );
  const episodes = eraseSubtree(
    tables.episodes,
    scope,
    (e) => e.record.scope,
    (e) => e.record.id,
  );
  const facts = eraseSubtree(
    tables.facts,
    scope,
    (f) => f.scope,
    (f) => f.id,
  );
  let edges = eraseSubtree(
    tables.edges,
    scope,
    (e) => e.scope,
    (e) => e.id,
  );
  const doomedNodes = [...tables.nodes.tenantRows(tenantOf(scope))].filter((n) =>
    isInSubtree(n.scope, scope),
  );
  for (const node of doomedNodes) {
    for (const edgeId of [...(tables.edgesByNode.get(node.id) ?? [])])
      if (tables.edges.delete(edgeId)) edges += 1;
    tables.nodes.delete(node.id);
  }
  const state = eraseSubtree(
    tables.state,
    scope,
    (s) => s.scope,
    (s) => compositeKey(exactScopeKey(s.scope), s.key),
  );
  const ledger = eraseSubtree(
    tables.ledger,
    scope,
    (l) => l.scope,
    (l) => compositeKey(exactScopeKey(l.scope), l.key),
  );
  const review = eraseSubtree(
    tables.review,
    scope,
    (r) => r.scope,
    (r) => r.id,
  );
  const audit = eraseSubtree(
    tables.audit,
    scope,
    (a) => a.entry.scope,
    (a) => a.entry.id,
  );
  return {
    threads,
    messages,
    episodes,
    facts,
    nodes: doomedNodes.length,
    edges,
    state,
    ledger,
    review,
    audit,
  };
}
