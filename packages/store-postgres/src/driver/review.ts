import { conflict, notFound, type ReviewDriver, type ReviewItem } from '@strata-memory/core/store';
import { decodeCursor, encodeCursor, pageOf } from '../sql/cursor.ts';
import { Params } from '../sql/params.ts';
import {
  accessSql,
  SCOPE_COLUMN_LIST,
  scopeValuesSql,
  visibleByIdSql,
  visibleSql,
} from '../sql/scope-filter.ts';
import type { Database } from './database.ts';
import { compact, int, metadataOf, optionalInt, optionalText, type ScopeRow, scopeOfRow } from './rows.ts';

interface ReviewRow extends ScopeRow {
  id: string;
  kind: ReviewItem['kind'];
  reason: ReviewItem['reason'];
  proposal: unknown;
  dedupe_key: string | null;
  confidence: number;
  status: ReviewItem['status'];
  access_level: number;
  provenance: unknown;
  created_at: unknown;
  decided_at: unknown;
  decided_by: string | null;
  note: string | null;
}

const COLUMNS = `${SCOPE_COLUMN_LIST}, id, kind, reason, proposal, dedupe_key, confidence, status, access_level,
  provenance, created_at, decided_at, decided_by, note`;

function itemOf(row: ReviewRow): ReviewItem {
  return compact({
    id: row.id,
    scope: scopeOfRow(row),
    kind: row.kind,
    reason: row.reason,
    proposal: metadataOf(row.proposal),
    dedupeKey: optionalText(row.dedupe_key),
    confidence: Number(row.confidence),
    status: row.status,
    accessLevel: Number(row.access_level),
    provenance: row.provenance as ReviewItem['provenance'],
    createdAt: int(row.created_at),
    decidedAt: optionalInt(row.decided_at),
    decidedBy: optionalText(row.decided_by),
    note: optionalText(row.note),
  });
}

export function reviewDriver(db: Database): ReviewDriver {
  return {
    async add({ item }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query<ReviewRow>(
        `INSERT INTO ${schema}.review_items (${COLUMNS})
         VALUES (${scopeValuesSql(item.scope, p)}, ${p.add(item.id)}, ${p.add(item.kind)}, ${p.add(item.reason)},
           ${p.json(item.proposal)}, ${p.add(item.dedupeKey)}, ${p.add(item.confidence)}, 'pending', ${p.add(item.accessLevel)},
           ${p.json(item.provenance)}, ${p.add(item.createdAt)}, NULL, NULL, NULL)
         ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
        p.values,
      );
      if (!result.rows[0]) throw conflict(`review item "${item.id}" already exists`, { id: item.id });
      return itemOf(result.rows[0]);
    },

    async get({ scope, ids, accessLevel }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [visibleByIdSql(scope, ids, p), ...accessSql(accessLevel, p)];
      const result = await db.query<ReviewRow>(
        `SELECT ${COLUMNS} FROM ${schema}.review_items WHERE ${where.join(' AND ')}`,
        p.values,
      );
      const byId = new Map(result.rows.map((row) => [row.id, itemOf(row)]));
      return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
    },

    async list({ scope, accessLevel, status, dedupeKey, limit, cursor }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [visibleSql(scope, p), `status = ANY(${p.texts(status)})`, ...accessSql(accessLevel, p)];
      if (dedupeKey === null) where.push('dedupe_key IS NULL');
      else if (dedupeKey !== undefined) where.push(`dedupe_key = ${p.add(dedupeKey)}`);
      if (cursor !== undefined) {
        const [createdAt, id] = decodeCursor('review', cursor, ['number', 'string']);
        where.push(`(created_at, id) > (${p.add(createdAt)}, ${p.add(id)})`);
      }
      const result = await db.query<ReviewRow>(
        `SELECT ${COLUMNS} FROM ${schema}.review_items WHERE ${where.join(' AND ')}
          ORDER BY created_at, id LIMIT ${p.add(limit + 1)}`,
        p.values,
      );
      return pageOf(result.rows, limit, itemOf, (row) =>
        encodeCursor('review', [int(row.created_at), row.id]),
      );
    },

    async decide({ scope, id, status, by, at, note }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        const p = new Params();
        const found = await db.query<ReviewRow>(
          `SELECT ${COLUMNS} FROM ${schema}.review_items WHERE ${visibleByIdSql(scope, id, p)} FOR UPDATE`,
          p.values,
        );
        const item = found.rows[0];
        if (!item) throw notFound('review item', id);
        if (item.status !== 'pending') {
          throw conflict(`review item "${id}" was already ${item.status}`, { id, status: item.status });
        }
        const u = new Params();
        const updated = await db.query<ReviewRow>(
          `UPDATE ${schema}.review_items
              SET status = ${u.add(status)}, decided_at = ${u.add(at)}, decided_by = ${u.add(by)}, note = ${u.add(note ?? null)}
            WHERE tenant_id = ${u.add(item.tenant_id)} AND id = ${u.add(id)}
            RETURNING ${COLUMNS}`,
          u.values,
        );
        return itemOf(updated.rows[0]!);
      });
    },
  };
}
