import type { AuditTrail } from '../engine/audit-log.ts';
import { isInSubtree, type Scope, sameScope } from '../scope/scope.ts';
import type { Store, StoreTransaction } from '../store/contract.ts';
import type { EdgeRecord, NodeRecord } from '../store/records.ts';

/**
 * Superseded branches: when an active `Z replaces W` (or `supersedes`) edge is stored at the
 * scope, W and W's other active edges describe the past. W is marked `superseded` and so are
 * those edges (with `validTo`), never deleted: history and "why it changed" stay readable, and
 * traversal and impact stop walking the dead branch. Only items inside the consolidated subtree
 * are touched.
 */

const REPLACEMENT = ['replaces', 'supersedes'];

export interface GraphSupersedePlan {
  replacement: EdgeRecord;
  node: NodeRecord;
  edges: EdgeRecord[];
}

async function pages<T>(
  fetch: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetch(cursor);
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

export async function planGraphSupersede(
  store: Store,
  args: { scope: Scope; root: Scope; claimed: Set<string> },
): Promise<{ plans: GraphSupersedePlan[]; replacementEdges: number }> {
  const { scope, root } = args;
  const replacements = (
    await pages((cursor) =>
      store.graph.listEdges({
        scope,
        relations: REPLACEMENT,
        status: ['active'],
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      }),
    )
  ).filter((e) => sameScope(e.scope, scope));
  const plans: GraphSupersedePlan[] = [];
  for (const replacement of replacements.sort((a, b) => (a.id < b.id ? -1 : 1))) {
    if (args.claimed.has(replacement.to)) continue;
    const [node] = await store.graph.getNodes({ scope, ids: [replacement.to] });
    if (node?.status !== 'active' || !isInSubtree(node.scope, root)) continue;
    const touching = await pages((cursor) =>
      store.graph.listEdges({
        scope,
        nodeIds: [node.id],
        direction: 'both',
        status: ['active'],
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      }),
    );
    const edges = touching.filter(
      (e) => !(REPLACEMENT.includes(e.relation) && e.to === node.id) && isInSubtree(e.scope, root),
    );
    args.claimed.add(node.id);
    plans.push({ replacement, node, edges: edges.sort((a, b) => (a.id < b.id ? -1 : 1)) });
  }
  return { plans, replacementEdges: replacements.length };
}

export async function applyGraphSupersede(
  tx: StoreTransaction,
  args: { plan: GraphSupersedePlan; now: number; audit: AuditTrail },
): Promise<void> {
  const { plan, now } = args;
  const reason = `replaced (edge ${plan.replacement.id})`;
  await tx.graph.updateNode({
    scope: plan.node.scope,
    id: plan.node.id,
    patch: { status: 'superseded', properties: { supersededReason: reason, supersededAt: now } },
    at: now,
  });
  for (const edge of plan.edges) {
    await tx.graph.updateEdge({
      scope: edge.scope,
      id: edge.id,
      patch: { status: 'superseded', validTo: now, properties: { supersededReason: reason } },
    });
  }
  args.audit.add({
    scope: plan.node.scope,
    action: 'graph.supersede',
    subjectType: 'node',
    subjectId: plan.node.id,
    details: {
      replacedBy: plan.replacement.from,
      edges: plan.edges.map((e) => e.id),
      replacementEdge: plan.replacement.id,
    },
  });
}
