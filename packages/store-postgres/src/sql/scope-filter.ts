import { type Scope, scopeColumns, subtreeFilter, visibilityFilter } from '@strata-memory/core';
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
 * tables' primary keys and indexes, so isolation is enforced by the query itself.
 */
export function visibleSql(scope: Scope, params: Params, alias?: string): string {
  const filter = visibilityFilter(scope);
  const parts = [`${column(alias, 'tenant_id')} = ${params.add(filter.tenant)}`];
  for (const [level, name] of LEVEL_COLUMNS) {
    const values = filter[level];
    const set = values.filter((value) => value !== '');
    parts.push(
      set.length === 0
        ? `${column(alias, name)} = ''`
        : `${column(alias, name)} IN ('', ${set.map((value) => params.add(value)).join(', ')})`,
    );
  }
  return parts.join(' AND ');
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
