import type { Scope } from '../../scope/scope.ts';

/** An unambiguous map key made of several strings (any characters allowed in each). */
export function compositeKey(...parts: string[]): string {
  return JSON.stringify(parts);
}

/**
 * A scope's exact identity as a map key. (Core's `scopeKey` is for display and logs; this one is
 * the plain JSON of the four levels, so no level value can make two scopes collide.)
 */
export function exactScopeKey(scope: Scope): string {
  return compositeKey(scope.orgId ?? '', scope.userId ?? '', scope.agentId ?? '', scope.threadId ?? '');
}

/**
 * The exact-scope keys of every scope a read at `reader` may see: each level unset or the reader's
 * (at most 16). Those of another tenant (an unset org above a set user makes a user-rooted
 * tenant) hold nothing in the reader's tenant's partitions, so looking them up there is harmless.
 */
export function visibleScopeKeys(reader: Scope): string[] {
  let keys: string[][] = [[]];
  for (const value of [reader.orgId, reader.userId, reader.agentId, reader.threadId]) {
    const options = value === undefined ? [''] : ['', value];
    keys = keys.flatMap((prefix) => options.map((option) => [...prefix, option]));
  }
  return keys.filter((parts) => parts.some((part) => part !== '')).map((parts) => compositeKey(...parts));
}
