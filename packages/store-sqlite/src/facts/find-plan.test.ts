import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { storeSchemas } from '@strata-memory/core/store';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStore } from '../index.ts';
import { findQuery } from './fact-driver.ts';

/**
 * A page of one scope's facts of one type and key in `confirmed` order (a LangGraph store's search)
 * is read off the `facts_by_confirmed` index in order: no sort of every matching row first. A find
 * pinned to entity ids (every fact write makes some) seeks them, whatever the scope holds.
 */

const folder = mkdtempSync(join(tmpdir(), 'strata-sqlite-find-plan-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function planOf(path: string, args: unknown): string {
  const { query } = findQuery(storeSchemas.factArgs.find.parse(args));
  const db = new DatabaseSync(path);
  try {
    return (db.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params) as Array<{ detail: string }>)
      .map((row) => row.detail)
      .join('\n');
  } finally {
    db.close();
  }
}

describe('facts.find query plan', () => {
  // A new file has no planner statistics (they come from `PRAGMA optimize` at close), which is when
  // a store fills: a lookup that walked the scope made each write cost more than the one before.
  it.each([
    ['of any type', { entityId: 'notes/k5' }],
    ['of one type and key', { entityType: 'store item', entityId: 'notes/k5', key: 'value' }],
    ['among several ids', { entityIds: ['notes/k5', 'notes/k6'] }],
  ])('an entity id lookup %s seeks the id, not a walk of the scope', async (_, pinned) => {
    const path = join(folder, 'lookup.db');
    await sqliteStore({ path }).migrate?.();
    const plan = planOf(path, {
      scope: { orgId: 'acme' },
      status: ['active', 'stale'],
      limit: 1000,
      ...pinned,
    });
    expect(plan).toMatch(/USING INDEX \w+ \([^)]*entity_id=\?/);
    expect(plan).not.toMatch(/facts_by_scope/);
  });

  it('the current facts a recall reads come off the current-versions index, not every version', async () => {
    const path = join(folder, 'current.db');
    await sqliteStore({ path }).migrate?.();
    const plan = planOf(path, {
      scope: { orgId: 'acme', userId: 'ann', threadId: 't1' },
      accessLevel: 0,
      status: ['active', 'stale'],
      limit: 1000,
    });
    expect(plan).toMatch(/USING INDEX facts_current/);
  });

  it('confirmed order at one exact scope reads the index in order, filters and all', async () => {
    const path = join(folder, 'plan.db');
    await (await sqliteStore({ path }).migrate?.())?.version;
    const plan = planOf(path, {
      scope: { orgId: 'acme' },
      within: 'exact',
      entityType: 'store item',
      key: 'value',
      entityIdPrefix: 'docs/',
      where: { n: { $lt: 5 } },
      order: 'confirmed',
      limit: 10,
      offset: 20,
    });
    expect(plan).toMatch(/USING INDEX facts_by_confirmed/);
    expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
  });
});
