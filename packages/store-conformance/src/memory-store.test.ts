import { memoryStore } from '@strata-memory/core/store';
import { runStoreConformance } from './index.ts';

runStoreConformance({
  name: 'memory',
  create: async () => memoryStore(),
  createWithout: async (capability) => memoryStore({ capabilities: { [capability]: false } }),
});

// One store shared by every test, as a driver sharing one database across tests would: each test
// must use ids and tenants of its own and never depend on the store being empty.
const shared = memoryStore();
runStoreConformance({
  name: 'memory (one store for every test)',
  create: async () => shared,
  destroy: async () => {},
  createEmpty: async () => memoryStore(),
});
