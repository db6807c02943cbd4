import type { SQLInputValue } from 'node:sqlite';
import {
  type Scope,
  scopeColumns,
  scopeFromColumns,
  subtreeFilter,
  visibilityFilter,
} from '@strata-memory/core/store';

/** A value `node:sqlite` binds. */
export type SqlValue = SQLInputValue;

/** A piece of a WHERE clause with its parameters, in order. */
export interface Clause {
  sql: string;
  params: SqlValue[];
}

/** The five scope columns, in the order tables declare them. */
export const SCOPE_COLUMNS = ['tenant', 'org_id', 'user_id', 'agent_id', 'thread_id'] as const;

export interface ScopeRow {
  tenant: string;
  org_id: string;
  user_id: string;
  agent_id: string;
  thread_id: string;
}

function column(alias: string | undefined, name: string): string {
  return alias ? `${alias}.${name}` : name;
}

function inList(values: readonly SqlValue[]): string {
  return `(${values.map(() => '?').join(', ')})`;
}

/** The scope's five column values, in `SCOPE_COLUMNS` order. */
export function scopeValues(scope: Scope): [string, string, string, string, string] {
  const c = scopeColumns(scope);
  return [c.tenant, c.org, c.user, c.agent, c.thread];
}

/**
 * Rows a read at `scope` may see: same tenant, each level unset or equal to the reader's
 * (core's `visibilityFilter` as IN lists, which the scope-leading indexes serve).
 */
export function visibleClause(scope: Scope, alias?: string): Clause {
  const f = visibilityFilter(scope);
  const lists: Array<[string, string[]]> = [
    ['org_id', f.org],
    ['user_id', f.user],
    ['agent_id', f.agent],
    ['thread_id', f.thread],
  ];
  const parts = [`${column(alias, 'tenant')} = ?`];
  const params: SqlValue[] = [f.tenant];
  for (const [name, values] of lists) {
    parts.push(`${column(alias, name)} IN ${inList(values)}`);
    params.push(...values);
  }
  return { sql: parts.join(' AND '), params };
}

/** Rows in the subtree of `scope` (itself and its descendants), core's `subtreeFilter`. */
export function subtreeClause(scope: Scope, alias?: string): Clause {
  const f = subtreeFilter(scope);
  const parts = [`${column(alias, 'tenant')} = ?`];
  const params: SqlValue[] = [f.tenant];
  const levels: Array<[string, string | undefined]> = [
    ['org_id', f.org],
    ['user_id', f.user],
    ['agent_id', f.agent],
    ['thread_id', f.thread],
  ];
  for (const [name, value] of levels) {
    if (value === undefined) continue;
    parts.push(`${column(alias, name)} = ?`);
    params.push(value);
  }
  return { sql: parts.join(' AND '), params };
}

/** Rows stored at exactly `scope`. */
export function exactScopeClause(scope: Scope, alias?: string): Clause {
  return {
    sql: SCOPE_COLUMNS.map((name) => `${column(alias, name)} = ?`).join(' AND '),
    params: scopeValues(scope),
  };
}

export function scopeOfRow(row: ScopeRow): Scope {
  return scopeFromColumns({ org: row.org_id, user: row.user_id, agent: row.agent_id, thread: row.thread_id });
}

/** `AND`s clauses together, skipping empty ones. */
export function allOf(...clauses: Array<Clause | undefined>): Clause {
  const present = clauses.filter((c): c is Clause => c !== undefined && c.sql !== '');
  return {
    sql: present.map((c) => `(${c.sql})`).join(' AND ') || '1',
    params: present.flatMap((c) => c.params),
  };
}

/** `column IN (...)`; an empty list matches nothing. */
export function inClause(columnName: string, values: readonly SqlValue[]): Clause {
  if (values.length === 0) return { sql: '0', params: [] };
  return { sql: `${columnName} IN ${inList(values)}`, params: [...values] };
}

/** The rows a read `within` (see `facts.find`) reaches from `scope`: visible (default), exact or subtree. */
export function withinClause(scope: Scope, within: 'visible' | 'exact' | 'subtree' | undefined): Clause {
  return within === 'exact'
    ? exactScopeClause(scope)
    : within === 'subtree'
      ? subtreeClause(scope)
      : visibleClause(scope);
}
