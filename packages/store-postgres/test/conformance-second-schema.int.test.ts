import type { Store } from '@strata-memory/core/store';
import { runStoreConformance } from '@strata-memory/store-conformance';
import { afterAll, beforeAll } from 'vitest';
import { openTarget, type TestTarget } from './target.ts';

// The shared suite in a second schema, while `conformance.int.test.ts` runs it in the first:
// both share one database, and neither may see or break the other.
let target: TestTarget;
let store: Store;
beforeAll(async () => {
  target = await openTarget();
  store = target.openStore({ schema: target.freshSchema('conf_b') });
});
afterAll(() => target.close());

runStoreConformance({
  name: 'postgres (second schema)',
  create: async () => store,
  destroy: async () => {},
  createEmpty: async () => target.openStore({ schema: target.freshSchema('conf_b_empty') }),
});
