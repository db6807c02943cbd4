import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, type Memory, type Scope } from '@strata-memory/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInspect, stopInspect } from '../../test/inspect-process.ts';
import { seedInspectorMemory } from '../../test/inspector-seed.ts';
import { openStore, parseStoreLocation } from '../store-location.ts';

const pgUrl = process.env.STRATA_PG_URL;

/**
 * The inspector's API on PostgreSQL: the real server when STRATA_PG_URL is set, else PGlite in a
 * fresh folder. Each run seeds its own tenant, so runs against a shared server never meet.
 */
// PGlite opens a fresh data folder three times here (seed, inspector, check), each a WebAssembly
// PostgreSQL start: allow for a slow, shared machine.
const SLOW = 300_000;

describe(`strata inspect on ${pgUrl ? 'PostgreSQL' : 'PGlite'}`, { timeout: SLOW }, () => {
  const orgId = `inspect-${randomUUID()}`;
  const scope = { orgId, userId: 'maria' };
  const scopeText = `org=${orgId},user=maria`;
  let dir: string;
  let store: string;
  let reviewId: string;

  const openMemory = (): Memory => createMemory({ store: openStore(parseStoreLocation(store)) });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'strata-inspect-pg-'));
    store = pgUrl ?? `pglite:${join(dir, 'pg')}`;
    const memory = openMemory();
    try {
      ({ reviewId } = await seedInspectorMemory(memory, scope));
    } finally {
      await memory.close();
    }
  }, SLOW);

  afterAll(async () => {
    if (pgUrl && store) {
      const memory = openMemory();
      await memory.forget({ orgId }).finally(() => memory.close());
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, SLOW);

  it('serves the store, refuses a request without the token, and writes through the engine', async () => {
    const { child, url } = await startInspect([store, '--as', 'ops'], dir);
    try {
      const { origin, searchParams } = new URL(url);
      const token = searchParams.get('token') ?? '';
      const api = async (path: string, body?: unknown) => {
        const response = await fetch(new URL(path, origin), {
          method: body === undefined ? 'GET' : 'POST',
          headers: { 'x-strata-token': token, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.status, body: (await response.json()) as Record<string, unknown> };
      };
      const q = encodeURIComponent(scopeText);
      expect((await fetch(new URL(`/api/facts?scope=${q}`, origin))).status).toBe(401);
      // Without a root, every scope of the store (other tenants may share the server's database).
      const all = (await api('/api/scopes')).body as { items: Scope[]; start?: Scope };
      expect(all.items).toContainEqual(scope);
      expect((await api(`/api/scopes?root=${encodeURIComponent(`org=${orgId}`)}`)).body.items).toContainEqual(
        scope,
      );
      // The page opens on a scope whose facts it shows.
      expect(all.start).toBeDefined();
      const startText = Object.entries(all.start ?? {})
        .map(([level, value]) => `${level.replace(/Id$/, '')}=${value}`)
        .join(',');
      const startFacts = await api(`/api/facts?scope=${encodeURIComponent(startText)}`);
      expect(startFacts.body.items).not.toEqual([]);
      const facts = (await api(`/api/facts?scope=${q}`)).body.items as Array<{ key: string; value: unknown }>;
      expect(facts.find((f) => f.key === 'lead time')?.value).toBe('30 days');
      expect((await api('/api/review/approve', { scope: scopeText, id: reviewId })).status).toBe(200);
      const corrected = await api('/api/facts/correct', {
        scope: scopeText,
        entity: 'supplier x',
        key: 'lead time',
        value: '21 days',
      });
      expect(corrected.status).toBe(200);
      expect(
        (await api('/api/facts/correct', { scope: scopeText, entity: 'supplier x', key: 'lead time' }))
          .status,
      ).toBe(400);
    } finally {
      expect(await stopInspect(child)).toBe(0);
    }
    const memory = openMemory();
    try {
      const history = await memory.facts.history(scope, { entity: 'Supplier X', key: 'lead time' });
      expect(history.map((v) => v.value)).toEqual(['45 days', '30 days', '21 days']);
      expect(history[2]?.provenance).toMatchObject({ source: 'human', principalId: 'ops' });
      const terms = await memory.facts.get(scope, { entity: 'construction suppliers', key: 'payment terms' });
      expect(terms?.value).toBe('90 days');
      const audit = await memory.store.audit.list({ scope, limit: 500 });
      expect(audit.items.filter((e) => e.actor === 'ops').map((e) => e.action)).toContain('review.approve');
    } finally {
      await memory.close();
    }
  });

  it('refuses a SQLite path where there is no store, instead of creating one', async () => {
    const missing = join(dir, 'typo.db');
    await expect(startInspect([missing], dir)).rejects.toThrow(/exited with 2: .*no SQLite store at/);
  });
});
