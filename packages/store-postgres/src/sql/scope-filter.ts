import {
  type Scope,
  scopeColumns,
  subtreeFilter,
  type VisibilityFilter,
  visibilityFilter,
} from '@strata-memory/core/store';
import type { Params } from './params.ts';

const LEVEL_COLUMNS = [
  ['org', 'org_id'],
  ['user', 'user_id'],
  ['agent', 'agent_id'],
  ['thread', 'thread_id'],
] as const;

function column(alias: string | undefined, name: string): string {
  return alias ? `${alias}.${name}` : name;
}

/**
 * The WHERE fragment for a read at `scope`: the row's tenant is the reader's, and each level is
 * unset or the reader's (core's `visibilityFilter`). It matches the leading columns of the
 * tables' primary keys and indexes, so isolation is enforced by the query itself. With `user`
 * (one of the user-level values `scope` sees, see `visibleUsers`), only the rows at that value.
 */
export function visibleSql(scope: Scope, params: Params, alias?: string, user?: string): string {
  const filter = visibilityFilter(scope);
  if (user !== undefined) filter.user = filter.user.filter((value) => value === user);
  return [
    `${column(alias, 'tenant_id')} = ${params.add(filter.tenant)}`,
    ...levelsSql(filter, params, alias),
  ].join(' AND ');
}

/** The user-level values a read at `scope` sees: `''` (rows above any user) and its own user, if any. */
export function visibleUsers(scope: Scope): string[] {
  return visibilityFilter(scope).user;
}

/** `visibleSql`'s conditions on the four levels below the tenant. */
function levelsSql(filter: VisibilityFilter, params: Params, alias?: string): string[] {
  return LEVEL_COLUMNS.map(([level, name]) => {
    const values = filter[level].map((value) => (value === '' ? "''" : params.add(value)));
    return values.length === 1
      ? `${column(alias, name)} = ${values[0]}`
      : `${column(alias, name)} IN (${values.join(', ')})`;
  });
}

/**
 * Rows by id that a read at `scope` may see, found through the `(tenant_id, id)` primary key:
 * `ids` is one id or several. The level conditions are wrapped in `(…) IS TRUE`, which no index
 * can serve, so the planner cannot pick a scope index instead: it expects the correlated scope
 * columns to hold a handful of rows, and then read every row of a user's scope (a thousand) to
 * find the few ids a recall's access counts update, where the key finds each in one probe.
 */
export function visibleByIdSql(
  scope: Scope,
  ids: string | readonly string[],
  params: Params,
  alias?: string,
): string {
  const filter = visibilityFilter(scope);
  const tenant = `${column(alias, 'tenant_id')} = ${params.add(filter.tenant)}`;
  const id = typeof ids === 'string' ? `= ${params.add(ids)}` : `= ANY(${params.texts(ids)})`;
  return `${tenant} AND ${column(alias, 'id')} ${id} AND (${levelsSql(filter, params, alias).join(' AND ')}) IS TRUE`;
}

/** Rows stored at a scope in the subtree of `scope` (itself or a descendant): forget, audit, thread lists. */
export function subtreeSql(scope: Scope, params: Params, alias?: string): string {
  const filter = subtreeFilter(scope);
  const parts = [`${column(alias, 'tenant_id')} = ${params.add(filter.tenant)}`];
  for (const [level, name] of LEVEL_COLUMNS) {
    const value = filter[level];
    if (value !== undefined) parts.push(`${column(alias, name)} = ${params.add(value)}`);
  }
  return parts.join(' AND ');
}

/** Rows stored at exactly `scope`. */
export function exactScopeSql(scope: Scope, params: Params, alias?: string): string {
  const c = scopeColumns(scope);
  return [
    `${column(alias, 'tenant_id')} = ${params.add(c.tenant)}`,
    `${column(alias, 'org_id')} = ${params.add(c.org)}`,
    `${column(alias, 'user_id')} = ${params.add(c.user)}`,
    `${column(alias, 'agent_id')} = ${params.add(c.agent)}`,
    `${column(alias, 'thread_id')} = ${params.add(c.thread)}`,
  ].join(' AND ');
}

/** The five scope columns' placeholders, in table order, for an INSERT. */
export function scopeValuesSql(scope: Scope, params: Params): string {
  const c = scopeColumns(scope);
  return [c.tenant, c.org, c.user, c.agent, c.thread].map((value) => params.add(value)).join(', ');
}

export const SCOPE_COLUMN_LIST = 'tenant_id, org_id, user_id, agent_id, thread_id';

/** `access_level <= $n` when the read is restricted, else nothing. */
export function accessSql(accessLevel: number | undefined, params: Params, alias?: string): string[] {
  return accessLevel === undefined ? [] : [`${column(alias, 'access_level')} <= ${params.add(accessLevel)}`];
}

/** The rows a read `within` (see `facts.find`) reaches from `scope`: visible (default), exact or subtree. */
export function withinSql(
  scope: Scope,
  within: 'visible' | 'exact' | 'subtree' | undefined,
  params: Params,
): string {
  return within === 'exact'
    ? exactScopeSql(scope, params)
    : within === 'subtree'
      ? subtreeSql(scope, params)
      : visibleSql(scope, params);
}
