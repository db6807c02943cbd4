import type { Scope } from '@strata-memory/core/store';

/**
 * The scope rules of the core README and DESIGN §3, written out again here on purpose (not imported
 * from core), so the property checks the drivers and the engine against the rule as documented, not
 * against the code they share. Ids compare as exact strings: case, unicode form and width twins are
 * different ids.
 */

const LEVELS = ['orgId', 'userId', 'agentId', 'threadId'] as const;

function rootLevel(scope: Scope): number {
  return LEVELS.findIndex((level) => scope[level] !== undefined);
}

/** Same tenant: the same first level set, with the same id. */
export function sameTenant(a: Scope, b: Scope): boolean {
  const level = rootLevel(a);
  if (level < 0 || level !== rootLevel(b)) return false;
  const name = LEVELS[level]!;
  return a[name] === b[name];
}

/** A read at `reader` sees an item stored at `item`: the item's scope is the reader's or an ancestor's. */
export function seesFrom(reader: Scope, item: Scope): boolean {
  return sameTenant(reader, item) && LEVELS.every((l) => item[l] === undefined || item[l] === reader[l]);
}

/** Exactly the same scope (state, ledger, a thread's messages). */
export function sameScopeExactly(a: Scope, b: Scope): boolean {
  return LEVELS.every((l) => a[l] === b[l]);
}

/** `item` lies in the subtree rooted at `root` (itself or a descendant): audit, scope and thread listings, forget. */
export function inSubtree(item: Scope, root: Scope): boolean {
  return sameTenant(item, root) && LEVELS.every((l) => root[l] === undefined || item[l] === root[l]);
}

/** A collision-free key for a scope (unset levels are null). */
export function keyOf(scope: Scope): string {
  return JSON.stringify(LEVELS.map((l) => scope[l] ?? null));
}

/** The scope with `threadId` dropped, unless that leaves nothing (the engine's `longTermScope: 'shared'`). */
export function longTermOf(scope: Scope): Scope {
  if (scope.threadId === undefined) return scope;
  const { threadId: _thread, ...rest } = scope;
  return Object.keys(rest).length > 0 ? rest : scope;
}
