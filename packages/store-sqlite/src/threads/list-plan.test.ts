import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { storeSchemas } from '@strata-memory/core/store';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStore } from '../index.ts';
import { threadListQuery } from './thread-queries.ts';

/**
 * A page of one user's threads (a Mastra resource's) by creation or update time, filtered by
 * metadata, is read off a thread index in order: no sort of every thread of the tenant first.
 */

const folder = mkdtempSync(join(tmpdir(), 'strata-sqlite-thread-plan-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('threads.list query plan', () => {
  it.each([
    ['createdAt', 'asc', 'threads_by_created'],
    ['createdAt', 'desc', 'threads_by_created'],
    ['updatedAt', 'desc', 'threads_by_updated'],
  ] as const)('%s %s reads %s in order', async (field, direction, index) => {
    const path = join(folder, `plan-${field}-${direction}.db`);
    await sqliteStore({ path }).migrate?.();
    const args = storeSchemas.threadArgs.list.parse({
      scope: { userId: 'u1' },
      levels: { orgId: false, agentId: false },
      metadata: { project: 'roof' },
      order: { field, direction },
      limit: 10,
      offset: 20,
    });
    const { query } = threadListQuery(args);
    const db = new DatabaseSync(path);
    try {
      const plan = (
        db.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params) as Array<{ detail: string }>
      )
        .map((row) => row.detail)
        .join('\n');
      expect(plan).toMatch(new RegExp(`USING (COVERING )?INDEX ${index}`));
      expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    } finally {
      db.close();
    }
  });
});
