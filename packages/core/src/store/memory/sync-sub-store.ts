/**
 * A sub-store's methods as the in-memory store implements them: synchronous, so each call runs to
 * completion without interleaving. The store wraps them into the async driver methods.
 */
export type SyncSubStore<D> = {
  [K in keyof D]: D[K] extends (args: infer A) => Promise<infer R> ? (args: A) => R : never;
};
