import { type Scope, scopeKey } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';

/**
 * The scopes at or below `root` that hold items, for batch work over a whole subtree
 * (consolidation, deleting one item by id). Store reads see a scope and its ancestors, never
 * descendants, so each descendant scope is read on its own. The store lists them
 * (`store.scopes.list`: every scope in the subtree where some row is stored, deepest first);
 * `root` itself always comes last, whether or not it holds rows.
 */
export async function* subtreeScopes(store: Store, root: Scope): AsyncGenerator<Scope> {
  const rootKey = scopeKey(root);
  let cursor: string | undefined;
  do {
    const page = await store.scopes.list({ scope: root, limit: 1000, ...(cursor ? { cursor } : {}) });
    for (const scope of page.items) if (scopeKey(scope) !== rootKey) yield scope;
    cursor = page.nextCursor;
  } while (cursor);
  yield root;
}
