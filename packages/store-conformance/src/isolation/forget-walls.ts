import type { ForgetCounts, Scope } from '@strata-memory/core/store';
import { expect } from 'vitest';
import type { PlantedRows, RowKind } from './planted-rows.ts';
import type { Observations } from './read-walls.ts';
import { inSubtree, keyOf, sameScopeExactly } from './scope-walls.ts';

/** The tenant root of a scope: its first level set, alone. */
export function tenantRootOf(scope: Scope): Scope {
  for (const level of ['orgId', 'userId', 'agentId', 'threadId'] as const) {
    if (scope[level] !== undefined) return { [level]: scope[level] };
  }
  return scope;
}

/**
 * Checks a forget of `forgotten` against the world: the counts are exactly the rows the world held
 * in that subtree, and the rows are marked gone so the next reads expect them gone.
 */
export function expectForgetCounts(rows: PlantedRows, forgotten: Scope, counts: ForgetCounts): void {
  const inside = (kind: RowKind) => rows.alive(kind).filter((r) => inSubtree(r.scope, forgotten));
  const expected = {
    threads: inside('thread').length,
    messages: inside('message').length,
    episodes: inside('episode').length,
    facts: inside('fact').length,
    nodes: inside('node').length,
    edges: inside('edge').length,
    state: inside('state').length,
    ledger: inside('ledger').length,
    review: inside('review').length,
  };
  const { audit: _audit, ...counted } = counts;
  expect(counted, `forget ${keyOf(forgotten)}: counts`).toEqual(expected);
  for (const row of rows.byId.values()) if (inSubtree(row.scope, forgotten)) row.alive = false;
}

/**
 * After forgetting `forgotten`, no read from any scope returns anything of its subtree (but the
 * record of the erasure, which the engine's `forget` writes at the tenant root: `audited`), and
 * every stable read returns what it returned before, less the forgotten subtree.
 */
export function expectOnlySubtreeGone(
  before: Observations,
  after: Observations,
  forgotten: Scope,
  audited: boolean,
): void {
  const root = tenantRootOf(forgotten);
  for (const [path, seen] of after) {
    const earlier = before.get(path);
    const earlierIds = new Set(earlier?.items.map((i) => i.id));
    // What a forget adds: its audit entry at the tenant root, which keeps the root in the scope listing.
    const rootListed = (item: { scope: Scope }) =>
      audited && path.startsWith('scopes.list') && sameScopeExactly(item.scope, root);
    const isForgetRecord = (item: { id: string; scope: Scope; action?: string }) =>
      rootListed(item) ||
      (audited && item.action === 'forget' && !earlierIds.has(item.id) && sameScopeExactly(item.scope, root));
    for (const item of seen.items) {
      if (isForgetRecord(item)) continue;
      expect(
        inSubtree(item.scope, forgotten),
        `${path} still returns ${item.id} of ${keyOf(item.scope)}`,
      ).toBe(false);
    }
    if (!seen.stable || !earlier) continue;
    const kept = earlier.items
      .filter((i) => !inSubtree(i.scope, forgotten) && !rootListed(i))
      .map((i) => i.id);
    const now = seen.items.filter((i) => !isForgetRecord(i)).map((i) => i.id);
    expect(now.sort(), `${path}: everything outside the forgotten subtree is unchanged`).toEqual(kept.sort());
  }
}
