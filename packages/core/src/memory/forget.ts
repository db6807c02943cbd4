import { AuditTrail } from '../engine/audit-log.ts';
import { actorOf, type Engine, longTermScopeOf, readLevel } from '../engine/engine.ts';
import { idArgumentSchema, principalOptionsSchema } from '../engine/input-schemas.ts';
import { subtreeScopes } from '../engine/subtree-scopes.ts';
import type { Layer, Principal } from '../engine/types.ts';
import { deleteIndexEpisodes, indexEpisodeIdsOf } from '../facts/fact-index.ts';
import { clearOutdatedMarkers } from '../facts/outdated-episodes.ts';
import { isInSubtree, isVisible, parseScope, SCOPE_LEVELS, type Scope, sameScope } from '../scope/scope.ts';
import type { ForgetCounts, StoreTransaction } from '../store/contract.ts';
import { parseArgs } from '../store/define-store.ts';
import { withTransaction } from '../store/with-transaction.ts';

/**
 * Erasure. `forget(scope)` removes every layer's data at or below `scope` (right to be
 * forgotten) and records that it happened — who, when, which scope, how many rows — at the
 * tenant root, where the erasure cannot reach it (or, when the root itself was erased, right
 * after). The record holds counts only, never contents.
 *
 * `forgetItem(scope, id)` deletes one episode, fact (all its versions, the episodes that index it
 * and the outdated-markers its versions left on episodes), node or edge, inside the subtree of the
 * caller's long-term scope: the scope itself, or, for a thread under `longTermScope: 'shared'`, the
 * scope without its thread (where that thread's long-term items are stored). So a user in one of
 * their threads can delete what memory keeps about them, and never an item of an ancestor (the
 * organisation's, shared by everyone in it), a sibling's or another tenant's.
 *
 * The lookup reads at the caller's scope first: one read sees the thread's items, the user's and
 * the ancestors', so the common case costs one lookup per layer. Only an id not visible from there
 * (an item further down the subtree, e.g. an org admin deleting a user's item, or an unknown id)
 * walks the subtree's scopes.
 */

/** The tenant root of a scope: its first level set, alone (`{ orgId }` or `{ userId }` …). */
export function tenantRootOf(scope: Scope): Scope {
  for (const level of SCOPE_LEVELS) {
    const value = scope[level];
    if (value !== undefined) return { [level]: value };
  }
  return scope;
}

export async function forget(
  engine: Engine,
  scopeInput: Scope,
  options: { principal?: Principal } | undefined,
): Promise<ForgetCounts> {
  const scope = parseScope(scopeInput);
  const { principal } = parseArgs(principalOptionsSchema, options, 'forget: options') ?? {};
  readLevel(engine, principal);
  const counts = await engine.store.forget({ scope });
  const at = engine.clock.now();
  const audit = new AuditTrail({ actor: actorOf(principal), at });
  audit.add({
    scope: tenantRootOf(scope),
    action: 'forget',
    subjectType: 'scope',
    details: { scope: { ...scope }, counts: { ...counts } },
  });
  await audit.flush(engine.store);
  return counts;
}

type Deletion = { layer: Exclude<Layer, 'working' | 'summary'>; scope: Scope };
/** `outside`: visible from the candidate but not in the caller's subtree (an ancestor's item). */
type Lookup = Deletion | 'outside' | undefined;

async function deleteAt(
  tx: StoreTransaction,
  args: { candidate: Scope; root: Scope; id: string; accessLevel: number },
): Promise<Lookup> {
  const { candidate, root, id, accessLevel } = args;
  const prefix = id.split('_')[0];
  const tryAll = !['ep', 'fact', 'node', 'edge'].includes(prefix ?? '');
  if (prefix === 'ep' || tryAll) {
    const [episode] = await tx.episodes.get({ scope: candidate, ids: [id], accessLevel });
    if (episode) {
      if (!isInSubtree(episode.scope, root)) return 'outside';
      await tx.episodes.delete({ scope: episode.scope, ids: [id] });
      return { layer: 'episodes', scope: episode.scope };
    }
  }
  if (prefix === 'fact' || tryAll) {
    const [fact] = await tx.facts.get({ scope: candidate, ids: [id], accessLevel });
    if (fact) {
      if (!isInSubtree(fact.scope, root)) return 'outside';
      const versions = await tx.facts.history({
        scope: fact.scope,
        entityType: fact.entityType,
        entityId: fact.entityId,
        key: fact.key,
      });
      const own = versions.filter((v) => sameScope(v.scope, fact.scope));
      // Episodes marked outdated by these versions must not keep naming a value that is gone.
      await clearOutdatedMarkers(tx, { scope: fact.scope, versions: own });
      // The episodes that index the fact go with it.
      await deleteIndexEpisodes(tx, { scope: fact.scope, fact, ids: own.flatMap(indexEpisodeIdsOf) });
      await tx.facts.delete({ scope: fact.scope, ids: own.map((v) => v.id) });
      return { layer: 'facts', scope: fact.scope };
    }
  }
  if (prefix === 'node' || tryAll) {
    const [node] = await tx.graph.getNodes({ scope: candidate, ids: [id], accessLevel });
    if (node) {
      if (!isInSubtree(node.scope, root)) return 'outside';
      await tx.graph.deleteNodes({ scope: node.scope, ids: [id] });
      return { layer: 'graph', scope: node.scope };
    }
  }
  if (prefix === 'edge' || tryAll) {
    let cursor: string | undefined;
    do {
      const page = await tx.graph.listEdges({
        scope: candidate,
        accessLevel,
        status: ['active', 'superseded'],
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      });
      const edge = page.items.find((e) => e.id === id);
      if (edge) {
        if (!isInSubtree(edge.scope, root)) return 'outside';
        await tx.graph.deleteEdges({ scope: edge.scope, ids: [id] });
        return { layer: 'graph', scope: edge.scope };
      }
      cursor = page.nextCursor;
    } while (cursor);
  }
  return undefined;
}

export async function forgetItem(
  engine: Engine,
  scopeInput: Scope,
  idInput: string,
  options: { principal?: Principal } | undefined,
): Promise<{ deleted: boolean; layer?: Layer }> {
  const scope = parseScope(scopeInput);
  const id = parseArgs(idArgumentSchema, idInput, 'forgetItem: id');
  const { principal } = parseArgs(principalOptionsSchema, options, 'forgetItem: options') ?? {};
  const accessLevel = readLevel(engine, principal);
  const root = longTermScopeOf(scope, engine.policy);
  const at = engine.clock.now();
  const attempt = (candidate: Scope) =>
    withTransaction(engine.store, async (tx): Promise<Lookup> => {
      const found = await deleteAt(tx, { candidate, root, id, accessLevel });
      if (found && found !== 'outside') {
        const audit = new AuditTrail({ actor: actorOf(principal), at });
        audit.add({
          scope: found.scope,
          action: 'forget.item',
          subjectId: id,
          details: { layer: found.layer },
        });
        await audit.flush(tx);
      }
      return found;
    });

  // The caller's own scope sees its items, the long-term root's and the ancestors'.
  const first = await attempt(scope);
  if (first === 'outside') return { deleted: false };
  if (first) return { deleted: true, layer: first.layer };
  // Not visible from there: the item, if any, is further down the subtree.
  for await (const candidate of subtreeScopes(engine.store, root)) {
    if (isVisible(candidate, scope)) continue; // everything visible from it was visible from `scope`
    const found = await attempt(candidate);
    if (found === 'outside') return { deleted: false };
    if (found) return { deleted: true, layer: found.layer };
  }
  return { deleted: false };
}
