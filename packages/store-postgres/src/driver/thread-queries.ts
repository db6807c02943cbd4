import type { ThreadDriver, ValueCondition } from '@strata-memory/core/store';
import { decodeCursor } from '../sql/cursor.ts';
import type { Params } from '../sql/params.ts';
import { exactScopeSql, subtreeSql } from '../sql/scope-filter.ts';
import { valueFilterSql } from '../sql/value-filter.ts';

type ListArgs = Parameters<ThreadDriver['list']>[0];
type FindMessagesArgs = Parameters<ThreadDriver['findMessages']>[0];

const LEVEL_COLUMNS = [
  ['orgId', 'org_id'],
  ['userId', 'user_id'],
  ['agentId', 'agent_id'],
] as const;

const SCOPE_ORDER = ['org_id', 'user_id', 'agent_id', 'thread_id'];

/**
 * A listing's page query, and its filter alone (for the count of every match), whose parameters
 * are the first `filterParams` of the query's.
 */
export interface ThreadQuery {
  query: string;
  filter: string;
  filterParams: number;
}

/** The cursor listing's name: a cursor of one order is refused by another. */
export function threadListing(order: ListArgs['order']): string {
  return `threads.${order.field}.${order.direction}`;
}

function metadataSql(column: string, metadata: readonly ValueCondition[] | undefined, p: Params): string[] {
  return metadata === undefined ? [] : valueFilterSql(column, metadata, p);
}

/**
 * The filter of `threads.list` (without the cursor), and the page query: every filter, the order
 * (the time, then the scope, in one direction) and the page in SQL. One user's threads read the
 * `threads_by_created` or `threads_by_updated` index in order.
 */
export function threadListSql(schema: string, args: ListArgs, p: Params): ThreadQuery {
  const where = [subtreeSql(args.scope, p)];
  for (const [level, column] of LEVEL_COLUMNS) {
    const set = args.levels?.[level];
    if (set !== undefined) where.push(`${column} ${set ? "<> ''" : "= ''"}`);
  }
  where.push(...metadataSql('metadata', args.metadata, p));
  const filter = where.join(' AND ');
  const filterParams = p.values.length;
  const time = args.order.field === 'createdAt' ? 'created_at' : 'updated_at';
  const direction = args.order.direction === 'asc' ? 'ASC' : 'DESC';
  const columns = [time, ...SCOPE_ORDER];
  if (args.cursor !== undefined) {
    const key = decodeCursor(threadListing(args.order), args.cursor, [
      'number',
      'string',
      'string',
      'string',
      'string',
    ]);
    const [at, ...scope] = key;
    where.push(
      `(${columns.join(', ')}) ${direction === 'ASC' ? '>' : '<'} (${p.add(at)}::bigint, ${scope.map((v) => p.add(v)).join(', ')})`,
    );
  }
  const orderBy = columns.map((column) => `${column} ${direction}`).join(', ');
  return {
    filter,
    filterParams,
    query: `SELECT * FROM ${schema}.threads WHERE ${where.join(' AND ')} ORDER BY ${orderBy}
      LIMIT ${p.add(args.limit + 1)} OFFSET ${p.add(args.offset ?? 0)}`,
  };
}

/** The object at `path` inside a message's metadata, or NULL when it is missing. */
function metadataAt(path: readonly string[] | undefined, p: Params): string {
  return path === undefined ? 'metadata' : `(metadata #> ${p.texts(path)})`;
}

/** The filter of `threads.findMessages` and its page query. */
export function findMessagesSql(schema: string, args: FindMessagesArgs, p: Params): ThreadQuery {
  const where = [`(${args.threads.map((scope) => `(${exactScopeSql(scope, p)})`).join(' OR ')})`];
  if (args.since !== undefined) where.push(`created_at >= ${p.add(args.since)}`);
  if (args.until !== undefined) where.push(`created_at <= ${p.add(args.until)}`);
  if (args.roles !== undefined) where.push(`role = ANY(${p.texts(args.roles)})`);
  where.push(...metadataSql(metadataAt(args.metadataAt, p), args.metadata, p));
  const filter = where.join(' AND ');
  const filterParams = p.values.length;
  const direction = args.order === 'asc' ? 'ASC' : 'DESC';
  const orderBy = ['created_at', ...SCOPE_ORDER, 'seq'].map((column) => `${column} ${direction}`).join(', ');
  return {
    filter,
    filterParams,
    query: `SELECT * FROM ${schema}.messages WHERE ${filter} ORDER BY ${orderBy}
      LIMIT ${p.add(args.limit)} OFFSET ${p.add(args.offset ?? 0)}`,
  };
}
