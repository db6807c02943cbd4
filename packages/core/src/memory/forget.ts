import { clearOutdatedMarkers } from '../episodic/outdated-episodes.ts';
import { isInSubtree, parseScope, SCOPE_LEVELS, type Scope, sameScope } from '../scope/scope.ts';
import type { ForgetCounts, StoreTransaction } from '../store/contract.ts';
import { parseArgs } from '../store/define-store.ts';
import { AuditTrail } from './audit-log.ts';
import { actorOf, type Engine, readLevel, withTransaction } from './engine.ts';
import { idArgumentSchema, principalOptionsSchema } from './input-schemas.ts';
import { subtreeScopes } from './subtree-scopes.ts';
import type { Layer, Principal } from './types.ts';

/**
 * Erasure. `forget(scope)` removes every layer's data at or below `scope` (right to be
 * forgotten) and records that it happened — who, when, which scope, how many rows — at the
 * tenant root, where the erasure cannot reach it (or, when the root itself was erased, right
 * after). The record holds counts only, never contents. `forgetItem(scope, id)` deletes one
 * episode, fact (all its versions, and the outdated-markers they left on episodes), node or edge,
 * and only inside the caller's subtree.
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

async function deleteAt(
  tx: StoreTransaction,
  args: { candidate: Scope; root: Scope; id: string; accessLevel: number },
): Promise<Deletion | undefined> {
  const { candidate, root, id, accessLevel } = args;
  const prefix = id.split('_')[0];
  const tryAll = !['ep', 'fact', 'node', 'edge'].includes(prefix ?? '');
  if (prefix === 'ep' || tryAll) {
    const [episode] = await tx.episodes.get({ scope: candidate, ids: [id], accessLevel });
    if (episode && isInSubtree(episode.scope, root)) {
      await tx.episodes.delete({ scope: episode.scope, ids: [id] });
      return { layer: 'episodes', scope: episode.scope };
    }
  }
  if (prefix === 'fact' || tryAll) {
    const [fact] = await tx.facts.get({ scope: candidate, ids: [id], accessLevel });
    if (fact && isInSubtree(fact.scope, root)) {
      const versions = await tx.facts.history({
        scope: fact.scope,
        entityType: fact.entityType,
        entityId: fact.entityId,
        key: fact.key,
      });
      const own = versions.filter((v) => sameScope(v.scope, fact.scope));
      // Episodes marked outdated by these versions must not keep naming a value that is gone.
      await clearOutdatedMarkers(tx, { scope: fact.scope, versions: own });
      await tx.facts.delete({ scope: fact.scope, ids: own.map((v) => v.id) });
      return { layer: 'facts', scope: fact.scope };
    }
  }
  if (prefix === 'node' || tryAll) {
    const [node] = await tx.graph.getNodes({ scope: candidate, ids: [id], accessLevel });
    if (node && isInSubtree(node.scope, root)) {
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
        if (!isInSubtree(edge.scope, root)) return undefined;
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
  const root = parseScope(scopeInput);
  const id = parseArgs(idArgumentSchema, idInput, 'forgetItem: id');
  const { principal } = parseArgs(principalOptionsSchema, options, 'forgetItem: options') ?? {};
  const accessLevel = readLevel(engine, principal);
  const at = engine.clock.now();
  for await (const candidate of subtreeScopes(engine.store, root)) {
    const done = await withTransaction(engine.store, async (tx) => {
      const deletion = await deleteAt(tx, { candidate, root, id, accessLevel });
      if (deletion) {
        const audit = new AuditTrail({ actor: actorOf(principal), at });
        audit.add({
          scope: deletion.scope,
          action: 'forget.item',
          subjectId: id,
          details: { layer: deletion.layer },
        });
        await audit.flush(tx);
      }
      return deletion;
    });
    if (done) return { deleted: true, layer: done.layer };
  }
  return { deleted: false };
}
