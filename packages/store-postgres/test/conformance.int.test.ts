import type { Store } from '@strata-memory/core/store';
import { runStoreConformance } from '@strata-memory/store-conformance';
import { afterAll, beforeAll } from 'vitest';
import { openTarget, type TestTarget } from './target.ts';

// The whole shared suite, against STRATA_PG_URL (PGlite when unset), in a schema of its own.
// `conformance-second-schema.int.test.ts` runs it again in another schema of the same database
// at the same time (vitest runs the two files in parallel).
let target: TestTarget;
let store: Store;
beforeAll(async () => {
  target = await openTarget();
  store = target.openStore({ schema: target.freshSchema('conf_a') });
});
afterAll(() => target.close());

runStoreConformance({
  name: 'postgres',
  create: async () => store,
  destroy: async () => {},
  createEmpty: async () => target.openStore({ schema: target.freshSchema('conf_a_empty') }),
});
