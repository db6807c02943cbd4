import {
  type AuditDriver,
  type AuditEntry,
  conflict,
  type Metadata,
  scopeColumns,
} from '@strata-memory/core/store';
import type { Runner } from '../database/session.ts';
import type { Statements } from '../database/statements.ts';
import { pageClauses, type SortColumn, toPage } from '../sql/cursor.ts';
import { fromJson, optional, setIfPresent, toJson } from '../sql/json-columns.ts';
import { allOf, inClause, type ScopeRow, scopeOfRow, subtreeClause } from '../sql/scope-sql.ts';

interface AuditRow extends ScopeRow {
  seq: number;
  id: string;
  at: number;
  action: string;
  actor: string;
  subject_type: string | null;
  subject_id: string | null;
  details: string;
}

function toEntry(row: AuditRow): AuditEntry {
  const entry: AuditEntry = {
    id: row.id,
    scope: scopeOfRow(row),
    at: row.at,
    action: row.action,
    actor: row.actor,
    details: fromJson<Metadata>(row.details),
  };
  setIfPresent(entry, 'subjectType', row.subject_type);
  setIfPresent(entry, 'subjectId', row.subject_id);
  return entry;
}

/** The append-only audit log: entries by time, then insertion order (`seq`). */
export function auditDriver(sql: Statements, run: Runner): AuditDriver {
  return {
    append: ({ entries }) =>
      run.write(() => {
        const ids = new Set<string>();
        for (const entry of entries) {
          if (ids.has(entry.id)) throw conflict(`audit entry "${entry.id}" already exists`, { id: entry.id });
          ids.add(entry.id);
        }
        const taken = sql.get<{ id: string }>(
          `SELECT id FROM audit_log WHERE ${inClause('id', [...ids]).sql} LIMIT 1`,
          [...ids],
        );
        if (taken) throw conflict(`audit entry "${taken.id}" already exists`, { id: taken.id });
        return entries.map((entry) => {
          const c = scopeColumns(entry.scope);
          sql.run(
            `INSERT INTO audit_log (id, tenant, org_id, user_id, agent_id, thread_id, at, action, actor, subject_type,
               subject_id, details)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [
              entry.id,
              c.tenant,
              c.org,
              c.user,
              c.agent,
              c.thread,
              entry.at,
              entry.action,
              entry.actor,
              optional(entry.subjectType),
              optional(entry.subjectId),
              toJson(entry.details),
            ],
          );
          const record: AuditEntry = {
            id: entry.id,
            scope: entry.scope,
            at: entry.at,
            action: entry.action,
            actor: entry.actor,
            details: entry.details,
          };
          setIfPresent(record, 'subjectType', entry.subjectType ?? null);
          setIfPresent(record, 'subjectId', entry.subjectId ?? null);
          return record;
        });
      }),

    list: ({ scope, actions, subjectId, since, until, order, limit, cursor }) =>
      run.read(() => {
        const columns: SortColumn[] = [
          { expr: 'at', direction: order },
          { expr: 'seq', direction: order },
        ];
        const page = { listing: 'audit', columns, limit, cursor };
        const { after, orderBy, limit: take } = pageClauses(page);
        const where = allOf(
          subtreeClause(scope),
          actions ? inClause('action', actions) : undefined,
          subjectId === undefined ? undefined : { sql: 'subject_id = ?', params: [subjectId] },
          since === undefined ? undefined : { sql: 'at >= ?', params: [since] },
          until === undefined ? undefined : { sql: 'at <= ?', params: [until] },
          after,
        );
        const rows = sql.all<AuditRow>(
          `SELECT * FROM audit_log WHERE ${where.sql} ORDER BY ${orderBy} LIMIT ?`,
          [...where.params, take],
        );
        return toPage(page, rows, (r) => [r.at, r.seq], toEntry);
      }),
  };
}
