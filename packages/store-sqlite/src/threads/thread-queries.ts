import type { ThreadDriver, ValueCondition } from '@strata-memory/core/store';
import { type PageQuery, pageClauses, type SortColumn } from '../sql/cursor.ts';
import { allOf, type Clause, exactScopeClause, inClause, subtreeClause } from '../sql/scope-sql.ts';
import { valueFilterClause } from '../sql/value-filter-sql.ts';

type ListArgs = Parameters<ThreadDriver['list']>[0];
type FindMessagesArgs = Parameters<ThreadDriver['findMessages']>[0];

const LEVEL_COLUMNS = [
  ['orgId', 'org_id'],
  ['userId', 'user_id'],
  ['agentId', 'agent_id'],
] as const;

/** Threads whose scope has each level of `levels` set (`true`, not `''`) or unset (`false`). */
function levelsClause(levels: ListArgs['levels']): Clause | undefined {
  if (levels === undefined) return undefined;
  const parts = LEVEL_COLUMNS.flatMap(([level, column]) =>
    levels[level] === undefined ? [] : [`${column} ${levels[level] ? "<> ''" : "= ''"}`],
  );
  return { sql: parts.join(' AND '), params: [] };
}

function metadataClause(column: string, metadata: readonly ValueCondition[] | undefined): Clause | undefined {
  return metadata === undefined || metadata.length === 0 ? undefined : valueFilterClause(column, metadata);
}

/** The thread listing's sort key: the time, then the scope, every column in one direction. */
export function threadOrder(order: ListArgs['order']): SortColumn[] {
  const column = order.field === 'createdAt' ? 'created_at' : 'updated_at';
  return [column, 'org_id', 'user_id', 'agent_id', 'thread_id'].map((expr) => ({
    expr,
    direction: order.direction,
  }));
}

/**
 * The SELECT of one `threads.list` page and the count of every match: filters, order and page in
 * the query. One user's threads (every scope level pinned) read the `threads_by_created` or
 * `threads_by_updated` index in order.
 */
export function threadListQuery(args: ListArgs): { page: PageQuery; query: Clause; count: Clause } {
  const page: PageQuery = {
    listing: `threads.${args.order.field}.${args.order.direction}`,
    columns: threadOrder(args.order),
    limit: args.limit,
    ...(args.cursor === undefined ? {} : { cursor: args.cursor }),
  };
  const { after, orderBy, limit: take } = pageClauses(page);
  const filter = allOf(
    subtreeClause(args.scope),
    levelsClause(args.levels),
    metadataClause('threads.metadata', args.metadata),
  );
  const where = allOf(filter, after);
  return {
    page,
    query: {
      sql: `SELECT * FROM threads WHERE ${where.sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      params: [...where.params, take, args.offset ?? 0],
    },
    count: { sql: `SELECT count(*) AS total FROM threads WHERE ${filter.sql}`, params: filter.params },
  };
}

/** The object at `path` inside a message's metadata as JSON text, or NULL when it is not an object. */
function metadataAt(path: readonly string[] | undefined): string {
  if (path === undefined) return 'messages.metadata';
  // Path keys are letters, digits, `_` and `-` (checked by the schema): quoted, they are safe inline.
  const json = `'$${path.map((key) => `."${key}"`).join('')}'`;
  return `(CASE WHEN json_type(messages.metadata, ${json}) = 'object' THEN json_extract(messages.metadata, ${json}) END)`;
}

/** The SELECT of one `threads.findMessages` page and the count of every match. */
export function findMessagesQuery(args: FindMessagesArgs): { query: Clause; count: Clause } {
  const threads = args.threads.map((scope) => exactScopeClause(scope));
  const filter = allOf(
    { sql: threads.map((t) => `(${t.sql})`).join(' OR '), params: threads.flatMap((t) => t.params) },
    args.since === undefined ? undefined : { sql: 'created_at >= ?', params: [args.since] },
    args.until === undefined ? undefined : { sql: 'created_at <= ?', params: [args.until] },
    args.roles === undefined ? undefined : inClause('role', args.roles),
    metadataClause(metadataAt(args.metadataAt), args.metadata),
  );
  const direction = args.order === 'asc' ? 'ASC' : 'DESC';
  const orderBy = ['created_at', 'org_id', 'user_id', 'agent_id', 'thread_id', 'seq']
    .map((column) => `${column} ${direction}`)
    .join(', ');
  return {
    query: {
      sql: `SELECT * FROM messages WHERE ${filter.sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      params: [...filter.params, args.limit, args.offset ?? 0],
    },
    count: { sql: `SELECT count(*) AS total FROM messages WHERE ${filter.sql}`, params: filter.params },
  };
}
