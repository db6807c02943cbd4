import { isInSubtree, scopeDepth, tenantOf } from '../../scope/scope.ts';
import type { ScopeDriver } from '../contract.ts';
import { paginate } from './pagination.ts';
import type { SyncSubStore } from './sync-sub-store.ts';
import type { MemoryTables } from './tables.ts';

export function scopeSubStore(tables: MemoryTables): SyncSubStore<ScopeDriver> {
  return {
    list({ scope, limit, cursor }) {
      const items =
        scope === undefined
          ? [...tables.scopes.allScopes()]
          : [...tables.scopes.scopesOf(tenantOf(scope))].filter((s) => isInSubtree(s, scope));
      return paginate({
        listing: 'scopes',
        items,
        keyOf: (s) => [scopeDepth(s), s.orgId ?? '', s.userId ?? '', s.agentId ?? '', s.threadId ?? ''],
        directions: ['desc', 'asc', 'asc', 'asc', 'asc'],
        limit,
        cursor,
      });
    },
  };
}
