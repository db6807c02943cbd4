import type { Scope, ScopeDriver } from '@strata-memory/core/store';
import { decodeCursor, encodeCursor, pageOf } from '../sql/cursor.ts';
import { Params } from '../sql/params.ts';
import { subtreeSql } from '../sql/scope-filter.ts';
import type { Database } from './database.ts';
import { type ScopeRow, scopeOfRow } from './rows.ts';

/**
 * The tables that hold rows at a scope, each with an index led by the five scope columns.
 * Messages are left out: a message lives in its thread, whose row is at the same scope.
 */
const SCOPED_TABLES = [
  'threads',
  'episodes',
  'facts',
  'nodes',
  'edges',
  'state',
  'ledger',
  'review_items',
  'audit_log',
] as const;

const LEVELS = 'org_id, user_id, agent_id, thread_id';
const PREVIOUS_LEVELS = 'w.org_id, w.user_id, w.agent_id, w.thread_id';

interface ListedScope extends Omit<ScopeRow, 'tenant_id'> {
  depth: number;
}

/**
 * One recursive CTE per table, a loose index scan: each step seeks the table's scope-led index to
 * the first row after the previous scope, so a table is read once per distinct scope listed,
 * however many rows each holds. All of it is one statement (one round trip). With `subtree`, the
 * tenant is fixed and the walk goes over the four levels; without it, over the tenant and the four
 * levels, tenant after tenant, through the same index.
 */
function skipScan(schema: string, table: string, subtree: string | undefined): string {
  const name = `walk_${table}`;
  const columns = subtree === undefined ? `tenant_id, ${LEVELS}` : LEVELS;
  const previous = subtree === undefined ? `w.tenant_id, ${PREVIOUS_LEVELS}` : PREVIOUS_LEVELS;
  const where = (...conditions: string[]) => {
    const all = subtree === undefined ? conditions : [subtree, ...conditions];
    return all.length > 0 ? `WHERE ${all.join(' AND ')}` : '';
  };
  return `${name} AS (
      (SELECT ${columns} FROM ${schema}.${table} ${where()} ORDER BY ${columns} LIMIT 1)
      UNION ALL
      SELECT next.* FROM ${name} w CROSS JOIN LATERAL (
        SELECT ${columns} FROM ${schema}.${table}
         ${where(`(${columns}) > (${previous})`)}
         ORDER BY ${columns} LIMIT 1) next)`;
}

export function scopeDriver(db: Database): ScopeDriver {
  return {
    async list({ scope, limit, cursor }: { scope?: Scope; limit: number; cursor?: string }) {
      const { schema } = await db.names();
      const p = new Params();
      const subtree = scope === undefined ? undefined : subtreeSql(scope, p);
      const walks = SCOPED_TABLES.map((table) => skipScan(schema, table, subtree));
      const union = SCOPED_TABLES.map((table) => `SELECT ${LEVELS} FROM walk_${table}`).join(' UNION ');
      const where: string[] = [];
      if (cursor !== undefined) {
        const [depth, org, user, agent, thread] = decodeCursor('scopes', cursor, [
          'number',
          'string',
          'string',
          'string',
          'string',
        ]);
        const d = p.add(depth);
        where.push(
          `(depth < ${d} OR (depth = ${d} AND (${LEVELS}) > (${[org, user, agent, thread]
            .map((value) => `${p.add(value)}::text COLLATE "C"`)
            .join(', ')})))`,
        );
      }
      const result = await db.query<ListedScope>(
        `WITH RECURSIVE ${walks.join(',\n')},
         found AS (
           SELECT ${LEVELS}, (org_id <> '')::int + (user_id <> '')::int + (agent_id <> '')::int
                  + (thread_id <> '')::int AS depth
             FROM (${union}) scopes)
         SELECT ${LEVELS}, depth FROM found
          ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
          ORDER BY depth DESC, ${LEVELS}
          LIMIT ${p.add(limit + 1)}`,
        p.values,
      );
      return pageOf(
        result.rows,
        limit,
        (row) => scopeOfRow({ tenant_id: '', ...row }),
        (row) =>
          encodeCursor('scopes', [Number(row.depth), row.org_id, row.user_id, row.agent_id, row.thread_id]),
      );
    },
  };
}
