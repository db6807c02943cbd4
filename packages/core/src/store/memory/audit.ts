import { conflict } from '../../errors/strata-error.ts';
import { isInSubtree, tenantOf } from '../../scope/scope.ts';
import type { AuditDriver } from '../contract.ts';
import type { AuditEntry } from '../records.ts';
import { paginate } from './pagination.ts';
import { compact } from './records-copy.ts';
import type { SyncSubStore } from './sync-sub-store.ts';
import type { AuditRow, MemoryTables } from './tables.ts';

export function auditSubStore(tables: MemoryTables): SyncSubStore<AuditDriver> {
  return {
    append({ entries }) {
      const ids = new Set<string>();
      for (const entry of entries) {
        if (ids.has(entry.id) || tables.audit.has(entry.id)) {
          throw conflict(`audit entry "${entry.id}" already exists`, { id: entry.id });
        }
        ids.add(entry.id);
      }
      return entries.map((entry) => {
        const record = compact(entry) as AuditEntry;
        tables.audit.set(record.id, { entry: record, seq: tables.nextAuditSeq() });
        return record;
      });
    },

    list({ scope, actions, subjectId, since, until, order, limit, cursor }) {
      const actionSet = actions ? new Set(actions) : undefined;
      const rows: AuditRow[] = [];
      for (const row of tables.audit.tenantRows(tenantOf(scope))) {
        const entry = row.entry;
        if (actionSet && !actionSet.has(entry.action)) continue;
        if (subjectId !== undefined && entry.subjectId !== subjectId) continue;
        if ((since !== undefined && entry.at < since) || (until !== undefined && entry.at > until)) continue;
        if (isInSubtree(entry.scope, scope)) rows.push(row);
      }
      const page = paginate({
        listing: 'audit',
        items: rows,
        keyOf: (r) => [r.entry.at, r.seq],
        directions: [order, order],
        limit,
        cursor,
      });
      return page.nextCursor === undefined
        ? { items: page.items.map((r) => r.entry) }
        : { items: page.items.map((r) => r.entry), nextCursor: page.nextCursor };
    },
  };
}
