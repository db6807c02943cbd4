import { isInSubtree, type Scope, scopeDepth, scopeKey, withoutThread } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';

/**
 * The scopes at or below `root` that may hold items, for batch work over a whole subtree
 * (consolidation, deleting one item by id). Store reads see a scope and its ancestors, never
 * descendants, so each descendant scope is read on its own. They are found from the threads in
 * the subtree (and the shared scope above each thread) and from the audit log, where the engine
 * records every write at the scope it wrote to (data written to a store by other means, at a
 * scope with no thread and no audit entry, is not found). `root` itself comes last.
 */
export async function* subtreeScopes(store: Store, root: Scope): AsyncGenerator<Scope> {
  const seen = new Set<string>([scopeKey(root)]);
  const emitOnce = function* (scopes: Scope[]) {
    const fresh = scopes
      .filter((s) => scopeDepth(s) > 0 && isInSubtree(s, root) && !seen.has(scopeKey(s)))
      .sort((a, b) => scopeDepth(b) - scopeDepth(a) || scopeKey(a).localeCompare(scopeKey(b)));
    for (const scope of fresh) {
      if (seen.has(scopeKey(scope))) continue;
      seen.add(scopeKey(scope));
      yield scope;
    }
  };

  let cursor: string | undefined;
  do {
    const page = await store.threads.list({ scope: root, limit: 1000, ...(cursor ? { cursor } : {}) });
    yield* emitOnce(page.items.flatMap((t) => [t.scope, withoutThread(t.scope)]));
    cursor = page.nextCursor;
  } while (cursor);

  cursor = undefined;
  do {
    const page = await store.audit.list({ scope: root, limit: 1000, ...(cursor ? { cursor } : {}) });
    yield* emitOnce(page.items.map((e) => e.scope));
    cursor = page.nextCursor;
  } while (cursor);

  yield root;
}
