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

// The same suite on real WAL files (one per test: the suite reuses fixed item ids across tests).
const folder = mkdtempSync(join(tmpdir(), 'strata-sqlite-conformance-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
runStoreConformance({
  name: 'sqlite (file)',
  create: async () => sqliteStore({ path: join(folder, `memory-${++files}.db`) }),
});
