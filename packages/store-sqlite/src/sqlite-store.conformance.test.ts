import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStoreConformance } from '@strata-memory/store-conformance';
import { afterAll } from 'vitest';
import { sqliteStore } from './index.ts';

runStoreConformance({ name: 'sqlite', create: async () => sqliteStore({ path: ':memory:' }) });

// Every vector search through the coarse sign-bit pass, then exact re-ranking.
runStoreConformance({
  name: 'sqlite (coarse vector search)',
  create: async () => sqliteStore({ path: ':memory:', exactVectorLimit: 0 }),
});

// The same suite on a real WAL file, one store shared by every test (each test uses fresh ids and
// tenants), as an application's file holds many tenants.
const folder = mkdtempSync(join(tmpdir(), 'strata-sqlite-conformance-'));
const shared = sqliteStore({ path: join(folder, 'memory.db') });
afterAll(async () => {
  await shared.close();
  rmSync(folder, { recursive: true, force: true });
});
runStoreConformance({
  name: 'sqlite (one file for every test)',
  create: async () => shared,
  destroy: async () => {},
  createEmpty: async () => sqliteStore({ path: join(folder, `empty-${randomUUID()}.db`) }),
});
