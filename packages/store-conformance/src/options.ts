import type { Store } from '@strata-memory/core/store';

/** Capabilities a driver may be able to build a store without, to prove `unsupported` errors. */
export type ToggleableCapability = 'keywordSearch' | 'vectorSearch' | 'transactions';

export interface StoreConformanceOptions {
  /** Names the driver in the test report: `store conformance: sqlite`. */
  name: string;
  /**
   * A store for one test. Every test uses fresh random tenants and item ids of its own (see
   * `Tenant.id`), so a driver may hand every test the same store, on one database.
   */
  create: () => Promise<Store>;
  /**
   * A new store that holds nothing yet, for the tests of a whole-store listing (`scopes.list`
   * without a scope); the test closes it. Default: `create`, which must then return a new, empty
   * store each time: give this when `create` hands out one shared store.
   */
  createEmpty?: () => Promise<Store>;
  /** Called after each test with the store `create` returned. Default: `store.close()`. */
  destroy?: (store: Store) => Promise<void>;
  /**
   * Optional: a store of this driver that does not declare `capability`. When given, the
   * capability suite checks that every call needing it fails with `unsupported`.
   */
  createWithout?: (capability: ToggleableCapability) => Promise<Store>;
}
