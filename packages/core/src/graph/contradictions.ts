import type { Contradiction } from '../engine/types.ts';
import { findAllFacts, sameValue } from '../facts/fact-reads.ts';
import { type Scope, scopeKey } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import type { EdgeRecord, FactRecord, NodeRecord } from '../store/records.ts';
import { DEPENDENCY_RELATIONS } from './impact.ts';

/**
 * Active items that cannot all be true, for a reviewer to settle:
 *
 * - facts: one entity and attribute with different current values (stored at different scopes,
 *   or under different entity types), e.g. `lead time` of `supplier x` is "30 days" for this user
 *   and "45 days" at the organisation;
 * - edges: `A replaces B` and `B replaces A` both active;
 * - edges: `Z replaces W` while something still depends on or uses `W`.
 */

const REPLACEMENT_RELATIONS = new Set(['replaces', 'supersedes']);

function display(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
}

function factContradictions(facts: FactRecord[]): Contradiction[] {
  const groups = new Map<string, FactRecord[]>();
  for (const fact of facts) {
    const id = `${fact.entityId}\u0000${fact.key}`;
    groups.set(id, [...(groups.get(id) ?? []), fact]);
  }
  const out: Contradiction[] = [];
  for (const group of groups.values()) {
    const distinct = group.filter((f, i) => group.findIndex((g) => sameValue(g.value, f.value)) === i);
    if (distinct.length < 2) continue;
    const first = group[0]!;
    out.push({
      kind: 'fact',
      ids: group.map((f) => f.id).sort(),
      description: `${first.key} of ${first.entityId} has ${distinct.length} current values: ${group
        .map((f) => `${display(f.value)} (${f.entityType}, ${scopeKey(f.scope)})`)
        .join(', ')}`,
    });
  }
  return out;
}

function edgeContradictions(edges: EdgeRecord[], names: Map<string, string>): Contradiction[] {
  const out: Contradiction[] = [];
  const name = (id: string) => names.get(id) ?? id;
  const replacements = edges.filter((e) => REPLACEMENT_RELATIONS.has(e.relation));
  const seen = new Set<string>();
  for (const edge of replacements) {
    const reverse = replacements.find((e) => e.from === edge.to && e.to === edge.from);
    if (reverse) {
      const ids = [edge.id, reverse.id].sort();
      const key = ids.join(',');
      if (!seen.has(key)) {
        seen.add(key);
        out.push({
          kind: 'edge',
          ids,
          description: `${name(edge.from)} and ${name(edge.to)} are each recorded as replacing the other`,
        });
      }
    }
    const stillUsed = edges.filter(
      (e) => e.to === edge.to && DEPENDENCY_RELATIONS.includes(e.relation) && e.from !== edge.from,
    );
    for (const use of stillUsed) {
      out.push({
        kind: 'edge',
        ids: [edge.id, use.id],
        description: `${name(edge.from)} replaces ${name(edge.to)}, but ${name(use.from)} still ${use.relation.replace(/_/g, ' ')} ${name(edge.to)}`,
      });
    }
  }
  return out;
}

async function allActiveEdges(store: Pick<StoreTransaction, 'graph'>, scope: Scope, accessLevel: number) {
  const out: EdgeRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.graph.listEdges({
      scope,
      accessLevel,
      status: ['active'],
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

export async function findContradictions(
  store: Pick<StoreTransaction, 'graph' | 'facts'>,
  args: { scope: Scope; accessLevel: number },
): Promise<Contradiction[]> {
  const facts = await findAllFacts(store, {
    scope: args.scope,
    accessLevel: args.accessLevel,
    status: ['active', 'stale'],
  });
  const edges = await allActiveEdges(store, args.scope, args.accessLevel);
  const nodeIds = [...new Set(edges.flatMap((e) => [e.from, e.to]))];
  const names = new Map<string, string>();
  for (let i = 0; i < nodeIds.length; i += 1000) {
    const nodes: NodeRecord[] = await store.graph.getNodes({
      scope: args.scope,
      ids: nodeIds.slice(i, i + 1000),
    });
    for (const node of nodes) names.set(node.id, node.name);
  }
  return [...factContradictions(facts), ...edgeContradictions(edges, names)];
}
