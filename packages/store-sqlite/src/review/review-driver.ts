import {
  conflict,
  type Metadata,
  notFound,
  type Provenance,
  type ReviewDriver,
  type ReviewItem,
  scopeColumns,
} from '@strata-memory/core/store';
import type { Runner } from '../database/session.ts';
import type { Statements } from '../database/statements.ts';
import { pageClauses, type SortColumn, toPage } from '../sql/cursor.ts';
import { fromJson, optional, setIfPresent, toJson } from '../sql/json-columns.ts';
import { allOf, inClause, type ScopeRow, scopeOfRow, visibleClause } from '../sql/scope-sql.ts';

interface ReviewRow extends ScopeRow {
  id: string;
  kind: ReviewItem['kind'];
  reason: ReviewItem['reason'];
  proposal: string;
  dedupe_key: string | null;
  confidence: number;
  status: ReviewItem['status'];
  access_level: number;
  provenance: string;
  created_at: number;
  decided_at: number | null;
  decided_by: string | null;
  note: string | null;
}

function toItem(row: ReviewRow): ReviewItem {
  const item: ReviewItem = {
    id: row.id,
    scope: scopeOfRow(row),
    kind: row.kind,
    reason: row.reason,
    proposal: fromJson<Metadata>(row.proposal),
    confidence: row.confidence,
    status: row.status,
    accessLevel: row.access_level,
    provenance: fromJson<Provenance>(row.provenance),
    createdAt: row.created_at,
  };
  setIfPresent(item, 'dedupeKey', row.dedupe_key);
  setIfPresent(item, 'decidedAt', row.decided_at);
  setIfPresent(item, 'decidedBy', row.decided_by);
  setIfPresent(item, 'note', row.note);
  return item;
}

const OLDEST_FIRST: SortColumn[] = [
  { expr: 'created_at', direction: 'asc' },
  { expr: 'id', direction: 'asc' },
];

/** The queue of proposed facts and edges waiting for a human decision. */
export function reviewDriver(sql: Statements, run: Runner): ReviewDriver {
  const readable = (scope: ReviewItem['scope'], accessLevel: number | undefined) =>
    allOf(
      visibleClause(scope),
      accessLevel === undefined ? undefined : { sql: 'access_level <= ?', params: [accessLevel] },
    );

  return {
    add: ({ item }) =>
      run.write(() => {
        if (sql.get('SELECT 1 AS found FROM review_items WHERE id = ?', [item.id])) {
          throw conflict(`review item "${item.id}" already exists`, { id: item.id });
        }
        const c = scopeColumns(item.scope);
        sql.run(
          `INSERT INTO review_items (id, tenant, org_id, user_id, agent_id, thread_id, kind, reason, proposal,
             dedupe_key, confidence, status, access_level, provenance, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
          [
            item.id,
            c.tenant,
            c.org,
            c.user,
            c.agent,
            c.thread,
            item.kind,
            item.reason,
            toJson(item.proposal),
            item.dedupeKey,
            item.confidence,
            item.accessLevel,
            toJson(item.provenance),
            item.createdAt,
          ],
        );
        const record: ReviewItem = { ...item, status: 'pending' };
        return record;
      }),

    get: ({ scope, ids, accessLevel }) =>
      run.read(() => {
        const unique = [...new Set(ids)];
        if (unique.length === 0) return [];
        const where = allOf(readable(scope, accessLevel), inClause('id', unique));
        const byId = new Map(
          sql
            .all<ReviewRow>(`SELECT * FROM review_items WHERE ${where.sql}`, where.params)
            .map((r) => [r.id, r]),
        );
        return unique.flatMap((id) => {
          const row = byId.get(id);
          return row ? [toItem(row)] : [];
        });
      }),

    list: ({ scope, accessLevel, status, dedupeKey, limit, cursor }) =>
      run.read(() => {
        const page = { listing: 'review', columns: OLDEST_FIRST, limit, cursor };
        const { after, orderBy, limit: take } = pageClauses(page);
        const byKey =
          dedupeKey === undefined
            ? undefined
            : dedupeKey === null
              ? { sql: 'dedupe_key IS NULL', params: [] }
              : { sql: 'dedupe_key = ?', params: [dedupeKey] };
        const where = allOf(readable(scope, accessLevel), inClause('status', status), byKey, after);
        const rows = sql.all<ReviewRow>(
          `SELECT * FROM review_items WHERE ${where.sql} ORDER BY ${orderBy} LIMIT ?`,
          [...where.params, take],
        );
        return toPage(page, rows, (r) => [r.created_at, r.id], toItem);
      }),

    decide: ({ scope, id, status, by, at, note }) =>
      run.write(() => {
        const where = allOf(visibleClause(scope), { sql: 'id = ?', params: [id] });
        const row = sql.get<ReviewRow>(`SELECT * FROM review_items WHERE ${where.sql}`, where.params);
        if (!row) throw notFound('review item', id);
        if (row.status !== 'pending') {
          throw conflict(`review item "${id}" was already ${row.status}`, { id, status: row.status });
        }
        const decided: ReviewRow = { ...row, status, decided_at: at, decided_by: by, note: optional(note) };
        sql.run('UPDATE review_items SET status = ?, decided_at = ?, decided_by = ?, note = ? WHERE id = ?', [
          status,
          at,
          by,
          decided.note,
          id,
        ]);
        return toItem(decided);
      }),
  };
}
