import {
  invalidInput,
  type Scope,
  type ScopeDriver,
  subtreeFilter,
  tenantRootScope,
} from '@strata-memory/core';
import type { Runner } from '../database/session.ts';
import type { Statements } from '../database/statements.ts';
import { decodeCursor, encodeCursor } from '../sql/cursor.ts';
import type { SqlValue } from '../sql/scope-sql.ts';

/**
 * The tables that hold rows at a scope, each with an index led by the five scope columns.
 * Messages are left out: a message lives in its thread, whose row is at the same scope.
 */
export const SCOPED_TABLES = [
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

const LEVELS = ['org_id', 'user_id', 'agent_id', 'thread_id'] as const;

/** A scope's four level columns, `''` when unset. */
type Levels = [string, string, string, string];

function scopeOfLevels([org, user, agent, thread]: Levels): Scope {
  const scope: Scope = {};
  if (org) scope.orgId = org;
  if (user) scope.userId = user;
  if (agent) scope.agentId = agent;
  if (thread) scope.threadId = thread;
  return scope;
}

/** Deepest first, then level by level (an unset level before any id). */
function compareScopes(a: Levels, b: Levels): number {
  const depth = (levels: Levels) => levels.filter((level) => level !== '').length;
  const byDepth = depth(b) - depth(a);
  if (byDepth !== 0) return byDepth;
  for (let i = 0; i < 4; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return 0;
}

/** The two statements of a skip scan over one table, and their fixed parameters. */
interface SkipScan {
  /** The subtree's first scope in index order. */
  first: string;
  /** The first scope after the walked levels given as extra parameters (undefined: nothing to walk). */
  next: string | undefined;
  fixed: SqlValue[];
  /** Indexes (into the four levels) of the levels walked in index order. */
  walked: number[];
}

/**
 * How to list, in one table, the distinct scopes of the subtree of `root`: a skip scan, each step
 * one seek in the table's scope-led index to the first row after the previous scope. Listing a
 * subtree costs one step per distinct scope, however many rows each holds.
 *
 * The subtree fixes the tenant and the levels the root sets; the levels after the leading fixed
 * ones are walked in index order with a row-value comparison, which SQLite turns into an index
 * range. (A level the root sets below an unset one is a plain filter.)
 */
function skipScan(table: string, root: Scope): SkipScan {
  const filter = subtreeFilter(root);
  const values = [filter.org, filter.user, filter.agent, filter.thread];
  const parts = ['tenant = ?'];
  const fixed: SqlValue[] = [filter.tenant];
  let prefix = 0;
  while (prefix < 4 && values[prefix] !== undefined) prefix += 1;
  for (let i = 0; i < 4; i++) {
    if (values[i] === undefined) continue;
    parts.push(`${LEVELS[i]} = ?`);
    fixed.push(values[i]!);
  }
  const walked = [0, 1, 2, 3].slice(prefix);
  const select = `SELECT ${LEVELS.join(', ')} FROM ${table} WHERE ${parts.join(' AND ')}`;
  if (walked.length === 0) return { first: `${select} LIMIT 1`, next: undefined, fixed, walked };
  const walkedColumns = walked.map((i) => LEVELS[i]).join(', ');
  const after = `(${walkedColumns}) > (${walked.map(() => '?').join(', ')})`;
  return {
    first: `${select} ORDER BY ${walkedColumns} LIMIT 1`,
    next: `${select} AND ${after} ORDER BY ${walkedColumns} LIMIT 1`,
    fixed,
    walked,
  };
}

/** Every distinct scope of the subtree of `root` that holds a row in `table`. */
function scopesIn(sql: Statements, table: string, root: Scope): Levels[] {
  const scan = skipScan(table, root);
  const out: Levels[] = [];
  let row = sql.get<Record<string, string>>(scan.first, scan.fixed);
  while (row) {
    const levels = LEVELS.map((level) => row![level]!) as Levels;
    out.push(levels);
    if (scan.next === undefined) break;
    row = sql.get<Record<string, string>>(scan.next, [...scan.fixed, ...scan.walked.map((i) => levels[i]!)]);
  }
  return out;
}

function decodeScopeCursor(cursor: string): Levels {
  const key = decodeCursor('scopes', cursor, 4);
  if (!key.every((value) => typeof value === 'string')) {
    throw invalidInput('cursor is not a cursor of scopes: pass back a nextCursor unchanged');
  }
  return key as Levels;
}

/**
 * `scopes.list`: the distinct scopes of the subtree, gathered from every scoped table by skip
 * scans (one read transaction, so one consistent snapshot), then ordered and paged here.
 */
export function scopeDriver(sql: Statements, run: Runner): ScopeDriver {
  return {
    list: ({ scope, limit, cursor }) =>
      run.read(() => {
        const after = cursor === undefined ? undefined : decodeScopeCursor(cursor);
        const seen = new Map<string, Levels>();
        for (const table of SCOPED_TABLES) {
          for (const levels of scopesIn(sql, table, scope)) seen.set(JSON.stringify(levels), levels);
        }
        const ordered = [...seen.values()]
          .filter((levels) => after === undefined || compareScopes(levels, after) > 0)
          .sort(compareScopes);
        const page = ordered.slice(0, limit);
        const items = page.map(scopeOfLevels);
        const last = page[page.length - 1];
        return ordered.length > limit && last
          ? { items, nextCursor: encodeCursor('scopes', last) }
          : { items };
      }),

    tenants: ({ limit, cursor }) =>
      run.read(() => {
        const after = cursor === undefined ? undefined : decodeCursor('tenants', cursor, 1)[0];
        if (after !== undefined && typeof after !== 'string') {
          throw invalidInput('cursor is not a cursor of tenants: pass back a nextCursor unchanged');
        }
        // A skip scan per table over its tenant-led index: one seek per distinct tenant.
        const found = new Set<string>();
        for (const table of SCOPED_TABLES) {
          let last = after;
          for (let n = 0; n <= limit; n++) {
            const row = sql.get<{ tenant: string }>(
              `SELECT tenant FROM ${table}${last === undefined ? '' : ' WHERE tenant > ?'} ORDER BY tenant LIMIT 1`,
              last === undefined ? [] : [last],
            );
            if (!row) break;
            found.add(row.tenant);
            last = row.tenant;
          }
        }
        const ordered = [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        const page = ordered.slice(0, limit);
        const items = page.map(tenantRootScope);
        const lastTenant = page[page.length - 1];
        return ordered.length > limit && lastTenant !== undefined
          ? { items, nextCursor: encodeCursor('tenants', [lastTenant]) }
          : { items };
      }),
  };
}
