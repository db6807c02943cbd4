import { conflict } from '../../errors/strata-error.ts';
import { sameScope, tenantOf } from '../../scope/scope.ts';
import type { LedgerDriver } from '../contract.ts';
import type { LedgerEntry } from '../records.ts';
import { paginate } from './pagination.ts';
import { compact } from './records-copy.ts';
import type { SyncSubStore } from './sync-sub-store.ts';
import { compositeKey, exactScopeKey, type MemoryTables } from './tables.ts';

export function ledgerSubStore(tables: MemoryTables): SyncSubStore<LedgerDriver> {
  const keyOf = (scope: LedgerEntry['scope'], key: string) => compositeKey(exactScopeKey(scope), key);

  return {
    claim({ scope, key, owner, at, leaseMs }) {
      const existing = tables.ledger.get(keyOf(scope, key));
      if (existing && (existing.status === 'done' || at < existing.leaseUntil)) {
        return { claimed: false, entry: existing };
      }
      const entry: LedgerEntry = {
        scope,
        key,
        status: 'claimed',
        owner,
        claimedAt: at,
        leaseUntil: at + leaseMs,
      };
      tables.ledger.set(keyOf(scope, key), entry);
      return { claimed: true, entry };
    },

    complete({ scope, key, owner, at, result }) {
      const existing = tables.ledger.get(keyOf(scope, key));
      if (!existing || existing.owner !== owner) {
        throw conflict(`ledger key "${key}" is not held by "${owner}"`, { key, owner: existing?.owner });
      }
      if (existing.status === 'done') return existing;
      const entry = compact({ ...existing, status: 'done' as const, completedAt: at, result });
      tables.ledger.set(keyOf(scope, key), entry);
      return entry;
    },

    release({ scope, key, owner }) {
      const existing = tables.ledger.get(keyOf(scope, key));
      if (existing?.status !== 'claimed' || existing.owner !== owner) return { released: false };
      tables.ledger.delete(keyOf(scope, key));
      return { released: true };
    },

    get({ scope, key }) {
      return tables.ledger.get(keyOf(scope, key)) ?? null;
    },

    list({ scope, status, limit, cursor }) {
      const items: LedgerEntry[] = [];
      for (const entry of tables.ledger.tenantRows(tenantOf(scope))) {
        if (sameScope(entry.scope, scope) && (status === undefined || entry.status === status))
          items.push(entry);
      }
      return paginate({
        listing: 'ledger',
        items,
        keyOf: (e) => [e.key],
        directions: ['asc'],
        limit,
        cursor,
      });
    },
  };
}
