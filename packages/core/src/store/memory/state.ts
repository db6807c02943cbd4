import { conflict } from '../../errors/strata-error.ts';
import { sameScope, tenantOf } from '../../scope/scope.ts';
import type { StateDriver } from '../contract.ts';
import type { StateEntry } from '../records.ts';
import { paginate } from './pagination.ts';
import type { SyncSubStore } from './sync-sub-store.ts';
import { compositeKey, exactScopeKey, type MemoryTables } from './tables.ts';

export function stateSubStore(tables: MemoryTables): SyncSubStore<StateDriver> {
  const keyOf = (scope: StateEntry['scope'], key: string) => compositeKey(exactScopeKey(scope), key);

  return {
    get({ scope, key }) {
      return tables.state.get(keyOf(scope, key)) ?? null;
    },

    set({ scope, key, value, expectedVersion, at }) {
      const existing = tables.state.get(keyOf(scope, key));
      const version = existing?.version ?? 0;
      if (expectedVersion !== undefined && expectedVersion !== version) {
        throw conflict(`state "${key}" is at version ${version}, not ${expectedVersion}`, { key, version });
      }
      const entry: StateEntry = { scope, key, value, version: version + 1, updatedAt: at };
      tables.state.set(keyOf(scope, key), entry);
      return entry;
    },

    delete({ scope, key, expectedVersion }) {
      const existing = tables.state.get(keyOf(scope, key));
      if (expectedVersion !== undefined && existing?.version !== expectedVersion) {
        throw conflict(`state "${key}" is at version ${existing?.version ?? 0}, not ${expectedVersion}`, {
          key,
          version: existing?.version ?? 0,
        });
      }
      return { deleted: tables.state.delete(keyOf(scope, key)) };
    },

    restore({ entries }) {
      for (const entry of entries) {
        if (tables.state.has(keyOf(entry.scope, entry.key))) {
          throw conflict(`state "${entry.key}" already exists in this scope`, { key: entry.key });
        }
        tables.state.set(keyOf(entry.scope, entry.key), { ...entry });
      }
      return { restored: entries.length };
    },

    list({ scope, prefix, limit, cursor }) {
      const items: StateEntry[] = [];
      for (const entry of tables.state.tenantRows(tenantOf(scope))) {
        if (sameScope(entry.scope, scope) && (prefix === undefined || entry.key.startsWith(prefix))) {
          items.push(entry);
        }
      }
      return paginate({ listing: 'state', items, keyOf: (e) => [e.key], directions: ['asc'], limit, cursor });
    },
  };
}
