import { conflict, notFound } from '../../errors/strata-error.ts';
import { isVisible, tenantOf } from '../../scope/scope.ts';
import type { ReviewDriver } from '../contract.ts';
import type { ReviewItem } from '../records.ts';
import { paginate } from './pagination.ts';
import { compact } from './records-copy.ts';
import type { SyncSubStore } from './sync-sub-store.ts';
import type { MemoryTables } from './tables.ts';
import { readable } from './visibility.ts';

export function reviewSubStore(tables: MemoryTables): SyncSubStore<ReviewDriver> {
  return {
    add({ item }) {
      if (tables.review.has(item.id))
        throw conflict(`review item "${item.id}" already exists`, { id: item.id });
      const record: ReviewItem = { ...item, status: 'pending' };
      tables.review.set(record.id, record);
      return record;
    },

    get({ scope, ids, accessLevel }) {
      const out: ReviewItem[] = [];
      for (const id of new Set(ids)) {
        const item = tables.review.get(id);
        if (item && readable(item, scope, accessLevel)) out.push(item);
      }
      return out;
    },

    list({ scope, accessLevel, status, dedupeKey, limit, cursor }) {
      const statuses = new Set(status);
      const items: ReviewItem[] = [];
      for (const item of tables.review.tenantRows(tenantOf(scope))) {
        if (dedupeKey !== undefined && (item.dedupeKey ?? null) !== dedupeKey) continue;
        if (statuses.has(item.status) && readable(item, scope, accessLevel)) items.push(item);
      }
      return paginate({
        listing: 'review',
        items,
        keyOf: (i) => [i.createdAt, i.id],
        directions: ['asc', 'asc'],
        limit,
        cursor,
      });
    },

    decide({ scope, id, status, by, at, note }) {
      const item = tables.review.get(id);
      if (!item || !isVisible(item.scope, scope)) throw notFound('review item', id);
      if (item.status !== 'pending') {
        throw conflict(`review item "${id}" was already ${item.status}`, { id, status: item.status });
      }
      const record = compact({ ...item, status, decidedAt: at, decidedBy: by, note });
      tables.review.set(id, record);
      return record;
    },
  };
}
