import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ExplainEntry,
  type FactRecord,
  type Scope,
  type Store,
  scopeInventory,
} from '@strata-memory/core';
import { postgresStore } from '@strata-memory/store-postgres';
import { pgliteStore } from '@strata-memory/store-postgres/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { runJson } from './run-cli.ts';
import { memoryOn, seed } from './seed.ts';

const PG_URL = process.env.STRATA_PG_URL;
if (process.env.CI && !PG_URL) {
  throw new Error('CI is set but STRATA_PG_URL is not: the PostgreSQL server run must not be skipped in CI');
}

const folder = mkdtempSync(join(tmpdir(), 'strata-cli-pg-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * The commands that read through every layer (recall, facts, stats) on a PostgreSQL-family store,
 * seeded with the engine and then opened by the CLI in its own process.
 */
function readCommands(name: string, target: { store: string; org: string; open: () => Store }) {
  describe(name, () => {
    const maria: Scope = { orgId: target.org, userId: 'maria' };
    const scope = `org=${target.org},user=maria`;

    it('recall prints the corrected value and explains it', async () => {
      const run = await runJson<{ block: string; explain: ExplainEntry[] }>([
        '--store',
        target.store,
        'recall',
        "What is Supplier X's lead time?",
        '--scope',
        scope,
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.json.block).toContain('lead time: 30 days');
      expect(run.json.explain.some((e) => e.layer === 'facts' && e.included)).toBe(true);
    });

    it('facts list shows what the engine reads, and facts history every version', async () => {
      const list = await runJson<{ facts: FactRecord[] }>([
        '--store',
        target.store,
        'facts',
        'list',
        '--scope',
        scope,
      ]);
      expect(list.code, list.stderr).toBe(0);
      const memory = memoryOn(target.open());
      try {
        const expected = await memory.facts.list(maria, {}, { principal: { id: 't', role: 'admin' } });
        expect(list.json.facts.map((f) => f.id).sort()).toEqual(expected.map((f) => f.id).sort());
        expect(expected.length).toBeGreaterThan(0);
      } finally {
        await memory.close();
      }
      const history = await runJson<{ versions: FactRecord[] }>([
        '--store',
        target.store,
        'facts',
        'history',
        '--scope',
        scope,
        '--entity',
        'Supplier X',
        '--key',
        'lead time',
      ]);
      expect(history.json.versions.map((f) => f.value)).toEqual(['45 days', '30 days']);
    });

    it('stats counts each scope’s items as the engine does, and reports a size', async () => {
      const run = await runJson<{
        size: { bytes: number } | null;
        inventory: { totals: Record<string, number> };
      }>(['--store', target.store, 'stats', '--scope', `org=${target.org}`]);
      expect(run.code, run.stderr).toBe(0);
      const store = target.open();
      try {
        const expected = await scopeInventory(store, { orgId: target.org });
        expect(run.json.inventory).toEqual(JSON.parse(JSON.stringify(expected)));
        expect(expected.totals.facts).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
      expect(run.json.size?.bytes).toBeGreaterThan(0);
    });
  });
}

const pgliteDir = join(folder, 'pglite');
const org = `cli_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

describe('on PGlite and PostgreSQL', async () => {
  await seed(pgliteStore({ dataDir: pgliteDir }));
  readCommands('a PGlite folder', {
    store: `pglite:${pgliteDir}`,
    org: 'acme',
    open: () => pgliteStore({ dataDir: pgliteDir }),
  });

  // The server run needs a server: STRATA_PG_URL names it (CI always sets it; see the check above).
  if (PG_URL) {
    await seed(postgresStore({ connectionString: PG_URL }), org);
    readCommands('a PostgreSQL server', {
      store: PG_URL,
      org,
      open: () => postgresStore({ connectionString: PG_URL }),
    });
    it('forget --yes erases the test organisation from the server', async () => {
      const run = await runJson(['--store', PG_URL, 'forget', '--org', org, '--yes']);
      expect(run.code, run.stderr).toBe(0);
      const store = postgresStore({ connectionString: PG_URL });
      try {
        // Only the record of the erasure stays, in the audit log at the tenant root.
        const { totals, scopes } = await scopeInventory(store, { orgId: org });
        expect(scopes.map((entry) => entry.scope)).toEqual([{ orgId: org }]);
        const { audit, ...layers } = totals;
        expect(Object.values(layers).every((n) => n === 0)).toBe(true);
        expect(audit).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
    });
  }
});
