import { invalidInput, type Scope, type ScopeDriver, subtreeFilter } from '@strata-memory/core/store';
import type { Runner } from '../database/session.ts';
import type { Statements } from '../database/statements.ts';
import { decodeCursor, encodeCursor } from '../sql/cursor.ts';
import { SCOPE_COLUMNS, type SqlValue } from '../sql/scope-sql.ts';

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
  /** The first scope in index order. */
  first: string;
  /** The first scope after the walked columns given as extra parameters (undefined: nothing to walk). */
  next: string | undefined;
  fixed: SqlValue[];
  /** The columns walked in index order (a suffix of the tenant and the four levels). */
  walked: string[];
}

/**
 * How to list, in one table, the distinct scopes of the subtree of `root`, or of the whole table
 * without a root: a skip scan, each step one seek in the table's scope-led index to the first row
 * after the previous scope. Listing costs one step per distinct scope, however many rows each holds.
 *
 * A subtree fixes the tenant and the levels the root sets; the levels after the leading fixed ones
 * are walked in index order with a row-value comparison, which SQLite turns into an index range. (A
 * level the root sets below an unset one is a plain filter.) Without a root, nothing is fixed: the
 * walk goes over the tenant and all four levels, tenant after tenant.
 */
function skipScan(table: string, root: Scope | undefined): SkipScan {
  const parts: string[] = [];
  const fixed: SqlValue[] = [];
  let walked: string[] = [...SCOPE_COLUMNS];
  if (root !== undefined) {
    const filter = subtreeFilter(root);
    const values = [filter.org, filter.user, filter.agent, filter.thread];
    parts.push('tenant = ?');
    fixed.push(filter.tenant);
    let prefix = 0;
    while (prefix < 4 && values[prefix] !== undefined) prefix += 1;
    for (let i = 0; i < 4; i++) {
      if (values[i] === undefined) continue;
      parts.push(`${LEVELS[i]} = ?`);
      fixed.push(values[i]!);
    }
    walked = LEVELS.slice(prefix);
  }
  const select = `SELECT ${LEVELS.join(', ')}${root === undefined ? ', tenant' : ''} FROM ${table}`;
  const where = (conditions: string[]) => (conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '');
  if (walked.length === 0)
    return { first: `${select}${where(parts)} LIMIT 1`, next: undefined, fixed, walked };
  const walkedColumns = walked.join(', ');
  const after = `(${walkedColumns}) > (${walked.map(() => '?').join(', ')})`;
  return {
    first: `${select}${where(parts)} ORDER BY ${walkedColumns} LIMIT 1`,
    next: `${select}${where([...parts, after])} ORDER BY ${walkedColumns} LIMIT 1`,
    fixed,
    walked,
  };
}

/** Every distinct scope of the subtree of `root` (of the whole table without one) holding a row in `table`. */
function scopesIn(sql: Statements, table: string, root: Scope | undefined): Levels[] {
  const scan = skipScan(table, root);
  const out: Levels[] = [];
  let row = sql.get<Record<string, string>>(scan.first, scan.fixed);
  while (row) {
    const found = row;
    out.push(LEVELS.map((level) => found[level]!) as Levels);
    if (scan.next === undefined) break;
    row = sql.get<Record<string, string>>(scan.next, [
      ...scan.fixed,
      ...scan.walked.map((column) => found[column]!),
    ]);
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
 * `scopes.list`: the distinct scopes of the subtree (of the whole store without a root), gathered from every scoped table by skip
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
  };
}
