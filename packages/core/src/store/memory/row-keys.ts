import { type Scope, visibleScopeRows } from '../../scope/scope.ts';

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

/** The exact-scope keys of every scope a read at `reader` may see (core's `visibleScopeRows`). */
export function visibleScopeKeys(reader: Scope): string[] {
  return visibleScopeRows(reader).map(([, ...levels]) => compositeKey(...levels));
}
