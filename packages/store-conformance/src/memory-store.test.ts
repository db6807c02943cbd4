import { memoryStore } from '@strata-memory/core';
import { runStoreConformance } from './index.ts';

runStoreConformance({
  name: 'memory',
  create: async () => memoryStore(),
  createWithout: async (capability) => memoryStore({ capabilities: { [capability]: false } }),
});
