import { z } from 'zod/v4';
import { StrataError } from '../errors/strata-error.ts';
import { translateIssues } from '../validation/issue-message.ts';
import { unstorableTextReason } from '../validation/storable-text.ts';

/**
 * Where a memory item lives. Levels nest org → user → agent → thread.
 *
 * Visibility (DESIGN §3): a read at scope R sees an item stored at scope S when both share the
 * same tenant root and every level set on S equals R's value at that level. So a thread sees its
 * user's and org's items; a user never sees a sibling user's items, nor a child thread's.
 *
 * The tenant root is the first level set, in order org, user, agent, thread: items of
 * `{ orgId: 'acme', userId: 'a' }` belong to tenant `org:acme`; items of `{ userId: 'a' }` to
 * tenant `user:a`. Every driver keys its rows by this tenant first, so data can be sharded by it.
 */
export interface Scope {
  orgId?: string;
  userId?: string;
  agentId?: string;
  threadId?: string;
}

export const SCOPE_LEVELS = ['orgId', 'userId', 'agentId', 'threadId'] as const;
export type ScopeLevel = (typeof SCOPE_LEVELS)[number];

/**
 * The most an identifier may hold: 256 bytes of UTF-8 (256 ASCII characters, 85 of most CJK
 * characters). Counted in bytes because that is what stores index: PostgreSQL keys each row by the
 * tenant and all four scope levels, and four levels of 256 three-byte characters overflowed its
 * index entries, while SQLite and the in-memory store took them.
 */
export const MAX_ID_BYTES = 256;
/** @deprecated Ids are limited in bytes of UTF-8: use `MAX_ID_BYTES` (the same number). */
export const MAX_ID_LENGTH = MAX_ID_BYTES;

/** An identifier: 1..256 bytes of UTF-8, valid Unicode, no control characters. */
export const idSchema = z
  .string()
  .min(1, 'must not be empty: pass a non-empty id')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')
  .refine((id) => unstorableTextReason(id) === undefined, 'must be valid Unicode (no lone UTF-16 surrogate)')
  .superRefine((id, ctx) => {
    // Characters are 1-4 bytes: only a string longer than a quarter of the limit can exceed it.
    if (id.length <= MAX_ID_BYTES / 4) return;
    const bytes = Buffer.byteLength(id, 'utf8');
    if (bytes > MAX_ID_BYTES) {
      ctx.addIssue({
        code: 'too_big',
        origin: 'string',
        maximum: MAX_ID_BYTES,
        inclusive: true,
        input: id,
        message: `must be at most ${MAX_ID_BYTES} bytes of UTF-8 (got ${bytes})`,
      });
    }
  });

export const scopeSchema = z
  .object({
    orgId: idSchema.optional(),
    userId: idSchema.optional(),
    agentId: idSchema.optional(),
    threadId: idSchema.optional(),
  })
  .strict()
  .refine((s) => SCOPE_LEVELS.some((level) => s[level] !== undefined), {
    message: 'a scope needs at least one of orgId, userId, agentId, threadId (there is no default tenant)',
  });

/** Validates a scope from untrusted input; returns a copy holding only the four levels. */
export function parseScope(input: unknown, argument = 'scope'): Scope {
  const result = scopeSchema.safeParse(input);
  if (!result.success) {
    const issues = translateIssues(result.error, scopeSchema, {}, argument);
    throw new StrataError({
      code: 'invalid_scope',
      message: `Invalid ${argument}: ${issues.map((i) => (i.message.startsWith(i.path || argument) ? i.message : `${i.path || argument}: ${i.message}`)).join('; ')}`,
      details: {
        issues: issues.map((i) => ({
          path: i.path ? i.path.split('.') : [],
          message: i.message,
          ...(i.suggestion ? { suggestion: i.suggestion } : {}),
        })),
      },
    });
  }
  return normalizeScope(result.data);
}

/** Drops unset levels so two equal scopes compare equal as JSON. */
export function normalizeScope(scope: Scope): Scope {
  const out: Scope = {};
  for (const level of SCOPE_LEVELS) {
    const value = scope[level];
    if (value !== undefined) out[level] = value;
  }
  return out;
}

/** The tenant root of a scope, e.g. `org:acme` or `user:42`. Every stored row leads with it. */
export function tenantOf(scope: Scope): string {
  if (scope.orgId !== undefined) return `org:${scope.orgId}`;
  if (scope.userId !== undefined) return `user:${scope.userId}`;
  if (scope.agentId !== undefined) return `agent:${scope.agentId}`;
  if (scope.threadId !== undefined) return `thread:${scope.threadId}`;
  throw new StrataError({ code: 'invalid_scope', message: 'a scope needs at least one level set' });
}

/** The root scope of a tenant key (`org:acme` → `{ orgId: 'acme' }`), the inverse of `tenantOf` on a root. */
export function tenantRootScope(tenant: string): Scope {
  const colon = tenant.indexOf(':');
  const level = { org: 'orgId', user: 'userId', agent: 'agentId', thread: 'threadId' }[
    tenant.slice(0, colon)
  ];
  if (colon < 0 || level === undefined) {
    throw new StrataError({
      code: 'invalid_input',
      message: `"${tenant}" is not a tenant key like org:acme`,
    });
  }
  return { [level]: tenant.slice(colon + 1) } as Scope;
}

/**
 * A scope as the five columns drivers store: the tenant and the four levels, with `''` for an
 * unset level (so columns can be NOT NULL and indexed).
 */
export interface ScopeColumns {
  tenant: string;
  org: string;
  user: string;
  agent: string;
  thread: string;
}

export function scopeColumns(scope: Scope): ScopeColumns {
  return {
    tenant: tenantOf(scope),
    org: scope.orgId ?? '',
    user: scope.userId ?? '',
    agent: scope.agentId ?? '',
    thread: scope.threadId ?? '',
  };
}

export function scopeFromColumns(columns: Omit<ScopeColumns, 'tenant'>): Scope {
  const scope: Scope = {};
  if (columns.org) scope.orgId = columns.org;
  if (columns.user) scope.userId = columns.user;
  if (columns.agent) scope.agentId = columns.agent;
  if (columns.thread) scope.threadId = columns.thread;
  return scope;
}

/**
 * The filter a driver puts in its WHERE clause for a read at `scope`: rows whose tenant equals
 * `tenant` and whose level columns are each one of the listed values. For a level the reader has
 * set, the row may leave it unset (`''`, an ancestor) or match it; for a level the reader has
 * not set, the row must leave it unset. The tenant's own level (the first one set, see
 * `tenantOf`) is set on every row of the tenant, so there the row must match: `org:acme`'s rows
 * all have `orgId` `acme`. Drivers that read each allowed combination separately (an index range
 * per visible scope) read half as many.
 *
 * SQL shape: `tenant = $t AND org IN (...) AND user IN (...) AND agent IN (...) AND thread IN (...)`.
 */
export interface VisibilityFilter {
  tenant: string;
  org: string[];
  user: string[];
  agent: string[];
  thread: string[];
}

export function visibilityFilter(scope: Scope): VisibilityFilter {
  const c = scopeColumns(scope);
  // The tenant root: every level before it is unset, and it is set on every row of the tenant.
  const root = [c.org, c.user, c.agent, c.thread].findIndex((value) => value !== '');
  const allowed = (value: string, level: number) =>
    value === '' ? [''] : level === root ? [value] : ['', value];
  return {
    tenant: c.tenant,
    org: allowed(c.org, 0),
    user: allowed(c.user, 1),
    agent: allowed(c.agent, 2),
    thread: allowed(c.thread, 3),
  };
}

/**
 * Every exact scope a read at `scope` may see, as its five column values (tenant, org, user,
 * agent, thread): each combination of `visibilityFilter`'s levels, at most 8. For stores that read
 * one index range or partition per visible scope.
 */
export function visibleScopeRows(scope: Scope): string[][] {
  const f = visibilityFilter(scope);
  let rows: string[][] = [[f.tenant]];
  for (const values of [f.org, f.user, f.agent, f.thread]) {
    rows = rows.flatMap((prefix) => values.map((value) => [...prefix, value]));
  }
  return rows;
}

/** True when an item stored at `item` is visible to a read at `reader` (the rule drivers implement in SQL). */
export function isVisible(item: Scope, reader: Scope): boolean {
  if (tenantOf(item) !== tenantOf(reader)) return false;
  return SCOPE_LEVELS.every((level) => item[level] === undefined || item[level] === reader[level]);
}

/**
 * The filter for operations on a whole subtree (forget, audit listing, thread listing): rows of the
 * same tenant whose levels equal every level set on `scope`; levels `scope` leaves unset match anything.
 */
export interface SubtreeFilter {
  tenant: string;
  org?: string;
  user?: string;
  agent?: string;
  thread?: string;
}

export function subtreeFilter(scope: Scope): SubtreeFilter {
  const filter: SubtreeFilter = { tenant: tenantOf(scope) };
  if (scope.orgId !== undefined) filter.org = scope.orgId;
  if (scope.userId !== undefined) filter.user = scope.userId;
  if (scope.agentId !== undefined) filter.agent = scope.agentId;
  if (scope.threadId !== undefined) filter.thread = scope.threadId;
  return filter;
}

/** True when `item` lies in the subtree rooted at `root` (itself or a descendant). */
export function isInSubtree(item: Scope, root: Scope): boolean {
  if (tenantOf(item) !== tenantOf(root)) return false;
  return SCOPE_LEVELS.every((level) => root[level] === undefined || item[level] === root[level]);
}

export function sameScope(a: Scope, b: Scope): boolean {
  return SCOPE_LEVELS.every((level) => a[level] === b[level]);
}

/** How specific a scope is: the number of levels set (1..4). More specific facts win over ancestors'. */
export function scopeDepth(scope: Scope): number {
  return SCOPE_LEVELS.filter((level) => scope[level] !== undefined).length;
}

/** A stable, collision-free string for a scope, for maps and logs: `=acme/=a//=t1` (unset levels empty). */
export function scopeKey(scope: Scope): string {
  const c = scopeColumns(scope);
  return [c.org, c.user, c.agent, c.thread]
    .map((v) => (v === '' ? '' : `=${encodeURIComponent(v)}`))
    .join('/');
}

export function withoutThread(scope: Scope): Scope {
  const { threadId: _thread, ...rest } = scope;
  return normalizeScope(rest);
}
