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
 * is read off the `facts_by_confirmed` index in order: no sort of every matching row first.
 */

const folder = mkdtempSync(join(tmpdir(), 'strata-sqlite-find-plan-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('facts.find query plan', () => {
  it('confirmed order at one exact scope reads the index in order, filters and all', async () => {
    const path = join(folder, 'plan.db');
    await (await sqliteStore({ path }).migrate?.())?.version;
    const args = storeSchemas.factArgs.find.parse({
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
    const { query } = findQuery(args);
    const db = new DatabaseSync(path);
    try {
      const plan = (
        db.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params) as Array<{ detail: string }>
      )
        .map((row) => row.detail)
        .join('\n');
      expect(plan).toMatch(/USING INDEX facts_by_confirmed/);
      expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    } finally {
      db.close();
    }
  });
});
