import type { NodeRef } from '../engine/types.ts';
import { notFound } from '../errors/strata-error.ts';
import { type Scope, sameScope, scopeDepth } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import { normalizeName } from '../store/normalize.ts';
import type { NodeRecord, Provenance } from '../store/records.ts';

/**
 * Finding graph nodes by id or by name. Names match case-, spacing- and punctuation-blind, on the
 * node's name or any alias, so "the Client SDK" and "client sdk" are one node. When several
 * visible nodes share a name, the choice is deterministic: the requested type, an exact name
 * (not alias) match, the most specific scope, then the oldest.
 */

function rank(node: NodeRecord, name: string, type: string | undefined, scope: Scope): number[] {
  return [
    type !== undefined && node.type === type ? 0 : 1,
    normalizeName(node.name) === normalizeName(name) ? 0 : 1,
    sameScope(node.scope, scope) ? 0 : 1,
    -scopeDepth(node.scope),
    node.createdAt,
  ];
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

export function bestNamed(nodes: NodeRecord[], name: string, type: string | undefined, scope: Scope) {
  return [...nodes].sort(
    (a, b) => compareRanks(rank(a, name, type, scope), rank(b, name, type, scope)) || (a.id < b.id ? -1 : 1),
  )[0];
}

/** The node a reference names, as the reader may see it; `not_found` otherwise. */
export async function resolveNodeRef(
  store: Pick<StoreTransaction, 'graph'>,
  args: { scope: Scope; ref: NodeRef; accessLevel?: number },
): Promise<NodeRecord> {
  const { scope, ref } = args;
  const level = args.accessLevel === undefined ? {} : { accessLevel: args.accessLevel };
  if (ref.id !== undefined) {
    const [node] = await store.graph.getNodes({ scope, ids: [ref.id], ...level });
    if (!node) throw notFound('node', ref.id);
    return node;
  }
  const name = ref.name ?? '';
  const type = ref.type === undefined ? undefined : normalizeName(ref.type);
  const found = await store.graph.findNodes({ scope, names: [name], status: ['active'], ...level });
  const candidates = type === undefined ? found : found.filter((n) => n.type === type);
  const best = bestNamed(candidates.length > 0 ? candidates : [], name, type, scope);
  if (!best) throw notFound('node', name);
  return best;
}

/**
 * The node for an extracted or API-given name: an existing visible node with that name or alias
 * (any type: "billing" stays one node whether an extractor typed it `entity` or `component`),
 * else a new one at `scope`. New aliases (and the name asked for, when the node was found through
 * an alias) are added to a node stored at the same scope.
 */
export async function findOrCreateNode(
  tx: StoreTransaction,
  args: {
    scope: Scope;
    name: string;
    type: string;
    aliases?: string[];
    accessLevel: number;
    provenance: Provenance;
    at: number;
  },
): Promise<{ node: NodeRecord; created: boolean }> {
  const names = [args.name, ...(args.aliases ?? [])];
  const found = await tx.graph.findNodes({ scope: args.scope, names, status: ['active'] });
  const existing = bestNamed(found, args.name, normalizeName(args.type), args.scope);
  if (existing) {
    // Found through one of its other names: the name asked for becomes an alias too.
    const known = new Set([existing.name, ...existing.aliases].map(normalizeName));
    const added: string[] = [];
    for (const alias of [args.name, ...(args.aliases ?? [])]) {
      if (known.has(normalizeName(alias))) continue;
      known.add(normalizeName(alias));
      added.push(alias);
    }
    if (added.length > 0 && sameScope(existing.scope, args.scope)) {
      const node = await tx.graph.updateNode({
        scope: args.scope,
        id: existing.id,
        patch: { aliases: [...existing.aliases, ...added] },
        at: args.at,
      });
      return { node, created: false };
    }
    return { node: existing, created: false };
  }
  const node = await tx.graph.upsertNode({
    node: {
      scope: args.scope,
      type: args.type,
      name: args.name,
      aliases: args.aliases ?? [],
      accessLevel: args.accessLevel,
      provenance: args.provenance,
      at: args.at,
    },
  });
  return { node, created: node.createdAt === node.updatedAt && node.createdAt === args.at };
}
