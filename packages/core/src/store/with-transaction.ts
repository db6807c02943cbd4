import type { Store, StoreTransaction } from './contract.ts';

/**
 * Runs `fn` in a store transaction when the store supports them (all of an operation's writes
 * commit together), else directly against the store.
 */
export async function withTransaction<T>(store: Store, fn: (tx: StoreTransaction) => Promise<T>): Promise<T> {
  if (store.capabilities.transactions) return store.transaction(fn);
  return fn(store);
}
