import type { ImpactResult } from '../engine/types.ts';
import type { Scope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import type { EdgeRecord, NodeRecord } from '../store/records.ts';

/**
 * "What breaks if X changes?" — the impact rule:
 *
 * - Whatever depends on X (an active `depends_on`, `uses`, `requires`, `calls`, `built_on` or
 *   `integrates_with` edge pointing at X) is affected, and so, transitively, is whatever depends
 *   on those.
 * - Whatever X `affects` (or `impacts`, `changes`) is changed by X. If other nodes depend on a
 *   changed node, the impact flows through it: its dependents are affected and the changed node
 *   itself is reported in `through`. A changed node nothing depends on is itself affected.
 *
 * So with "the gRPC migration affects the service API" and "auth, billing and the client SDK
 * depend on the service API", the impact of the migration is auth, billing and the client SDK
 * (two hops), through the service API.
 */

export const DEPENDENCY_RELATIONS = [
  'depends_on',
  'uses',
  'requires',
  'calls',
  'built_on',
  'integrates_with',
];
export const EFFECT_RELATIONS = ['affects', 'impacts', 'changes'];

interface Reached {
  id: string;
  depth: number;
  path: { nodeIds: string[]; edgeIds: string[] };
  via: 'dependency' | 'effect';
}

async function allEdges(
  store: Pick<StoreTransaction, 'graph'>,
  args: {
    scope: Scope;
    accessLevel?: number;
    nodeIds: string[];
    direction: 'in' | 'out';
    relations: string[];
  },
): Promise<EdgeRecord[]> {
  const out: EdgeRecord[] = [];
  for (let i = 0; i < args.nodeIds.length; i += 1000) {
    let cursor: string | undefined;
    do {
      const page = await store.graph.listEdges({
        scope: args.scope,
        ...(args.accessLevel === undefined ? {} : { accessLevel: args.accessLevel }),
        nodeIds: args.nodeIds.slice(i, i + 1000),
        direction: args.direction,
        relations: args.relations,
        status: ['active'],
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      });
      out.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
  }
  return out;
}

export async function impactOf(
  store: Pick<StoreTransaction, 'graph'>,
  args: { scope: Scope; accessLevel?: number; node: NodeRecord; maxHops: number },
): Promise<ImpactResult> {
  const { scope, accessLevel, node, maxHops } = args;
  const level = accessLevel === undefined ? {} : { accessLevel };
  const reached = new Map<string, Reached>();
  const nodes = new Map<string, NodeRecord>([[node.id, node]]);
  const hasDependents = new Set<string>();
  let frontier: Reached[] = [
    { id: node.id, depth: 0, path: { nodeIds: [node.id], edgeIds: [] }, via: 'effect' },
  ];

  for (let depth = 1; depth <= maxHops && frontier.length > 0; depth++) {
    const ids = frontier.map((r) => r.id);
    const byId = new Map(frontier.map((r) => [r.id, r]));
    const dependents = await allEdges(store, {
      scope,
      ...level,
      nodeIds: ids,
      direction: 'in',
      relations: DEPENDENCY_RELATIONS,
    });
    const effects = await allEdges(store, {
      scope,
      ...level,
      nodeIds: ids,
      direction: 'out',
      relations: EFFECT_RELATIONS,
    });
    const steps: Array<{ from: Reached; to: string; edge: EdgeRecord; via: Reached['via'] }> = [];
    for (const edge of dependents)
      steps.push({ from: byId.get(edge.to)!, to: edge.from, edge, via: 'dependency' });
    for (const edge of effects) steps.push({ from: byId.get(edge.from)!, to: edge.to, edge, via: 'effect' });
    steps.sort((a, b) => (a.edge.id < b.edge.id ? -1 : 1));

    const candidates = steps.filter((s) => s.to !== node.id && !reached.has(s.to));
    const fresh = [...new Set(candidates.map((s) => s.to))].filter((id) => !nodes.has(id));
    if (fresh.length > 0) {
      const fetched = await store.graph.getNodes({ scope, ids: fresh, ...level });
      for (const n of fetched) if (n.status === 'active') nodes.set(n.id, n);
    }
    for (const step of steps) {
      if (step.via === 'dependency' && step.to !== node.id && nodes.has(step.to))
        hasDependents.add(step.from.id);
    }
    const next: Reached[] = [];
    for (const step of candidates) {
      if (reached.has(step.to) || !nodes.has(step.to)) continue;
      const entry: Reached = {
        id: step.to,
        depth,
        via: step.via,
        path: {
          nodeIds: [...step.from.path.nodeIds, step.to],
          edgeIds: [...step.from.path.edgeIds, step.edge.id],
        },
      };
      reached.set(step.to, entry);
      next.push(entry);
    }
    frontier = next;
  }

  const affected: ImpactResult['affected'] = [];
  const through: NodeRecord[] = [];
  for (const entry of reached.values()) {
    const record = nodes.get(entry.id)!;
    if (entry.via === 'effect' && hasDependents.has(entry.id)) through.push(record);
    else affected.push({ node: record, depth: entry.depth, path: entry.path });
  }
  affected.sort((a, b) => a.depth - b.depth || a.node.name.localeCompare(b.node.name));
  return { node, affected, through };
}
