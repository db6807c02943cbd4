import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlClient } from '../src/client/sql-client.ts';
import { postgresStore } from '../src/postgres-store.ts';
import { openTarget, type TestTarget } from './target.ts';

/**
 * A page of one user's threads (a Mastra resource's) by creation or update time, filtered by
 * metadata, reads a thread index in order: no sort of every thread of the user first.
 */

let target: TestTarget;
beforeAll(async () => {
  target = await openTarget();
});
afterAll(() => target.close());

describe('threads.list query plan', () => {
  it.each([
    ['createdAt', 'asc', 'threads_by_created'],
    ['createdAt', 'desc', 'threads_by_created'],
    ['updatedAt', 'desc', 'threads_by_updated'],
  ] as const)('%s %s reads %s in order', async (field, direction, index) => {
    const schema = target.freshSchema('thread_plan');
    const statements: Array<{ text: string; params: readonly unknown[] | undefined }> = [];
    const client: SqlClient = {
      query: (text, params) => {
        statements.push({ text, params });
        return target.sql.query(text, params);
      },
      transaction: (fn) => target.sql.transaction(fn),
      close: async () => undefined,
    };
    const store = postgresStore({ client, schema, analyze: 'never' });
    try {
      await store.migrate?.();
      // Five users of 4,000 threads each; a third of them about the roof.
      await target.sql.query(
        `INSERT INTO "${schema}".threads (tenant_id, org_id, user_id, agent_id, thread_id, metadata, created_at, updated_at)
         SELECT 'user:u' || (i % 5), '', 'u' || (i % 5), '', 't' || i,
                jsonb_build_object('project', CASE WHEN i % 3 = 0 THEN 'roof' ELSE 'wall' END), i, 100000 - i
           FROM generate_series(1, 20000) AS i`,
      );
      await target.sql.query(`ANALYZE "${schema}".threads`);
      statements.length = 0;
      const page = await store.threads.list({
        scope: { userId: 'u3' },
        levels: { orgId: false, agentId: false },
        metadata: { project: 'roof' },
        order: { field, direction },
        limit: 10,
        offset: 20,
      });
      expect(page.items).toHaveLength(10);
      const select = statements.find((s) => s.text.includes('.threads WHERE'))!;
      const plan = (
        await target.sql.query<Record<string, string>>(`EXPLAIN ${select.text}`, select.params)
      ).rows
        .map((row) => Object.values(row)[0])
        .join('\n');
      expect(plan).toContain(index);
      expect(plan).not.toMatch(/Sort/);
    } finally {
      await store.close();
    }
  });
});
