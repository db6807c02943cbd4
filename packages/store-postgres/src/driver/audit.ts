import { type AuditDriver, type AuditEntry, conflict } from '@strata-memory/core/store';
import { decodeCursor, encodeCursor, pageOf } from '../sql/cursor.ts';
import { Params } from '../sql/params.ts';
import { SCOPE_COLUMN_LIST, scopeValuesSql, subtreeSql } from '../sql/scope-filter.ts';
import type { Database } from './database.ts';
import { compact, int, metadataOf, optionalText, type ScopeRow, scopeOfRow } from './rows.ts';

interface AuditRow extends ScopeRow {
  seq: unknown;
  id: string;
  at: unknown;
  action: string;
  actor: string;
  subject_type: string | null;
  subject_id: string | null;
  details: unknown;
}

const COLUMNS = `${SCOPE_COLUMN_LIST}, id, at, action, actor, subject_type, subject_id, details`;

function entryOf(row: AuditRow): AuditEntry {
  return compact({
    id: row.id,
    scope: scopeOfRow(row),
    at: int(row.at),
    action: row.action,
    actor: row.actor,
    subjectType: optionalText(row.subject_type),
    subjectId: optionalText(row.subject_id),
    details: metadataOf(row.details),
  });
}

export function auditDriver(db: Database): AuditDriver {
  return {
    async append({ entries }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        const p = new Params();
        const rows = entries.map(
          (e) =>
            `(${scopeValuesSql(e.scope, p)}, ${p.add(e.id)}, ${p.add(e.at)}, ${p.add(e.action)}, ${p.add(e.actor)},
              ${p.add(e.subjectType ?? null)}, ${p.add(e.subjectId ?? null)}, ${p.json(e.details)})`,
        );
        // Rows get their `seq` (insertion order, the tie-breaker between equal times) in list order.
        const result = await db.query<{ id: string }>(
          `INSERT INTO ${schema}.audit_log (${COLUMNS}) VALUES ${rows.join(', ')} ON CONFLICT DO NOTHING RETURNING id`,
          p.values,
        );
        if (result.rows.length !== entries.length) {
          const inserted = new Set(result.rows.map((row) => row.id));
          const seen = new Set<string>();
          const taken = entries.find((e) => {
            const repeat = seen.has(e.id) || !inserted.has(e.id);
            seen.add(e.id);
            return repeat;
          });
          throw conflict(`audit entry "${taken?.id}" already exists`, { id: taken?.id });
        }
        return entries.map((e) => compact(e) as AuditEntry);
      });
    },

    async list({ scope, actions, subjectId, since, until, order, limit, cursor }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [subtreeSql(scope, p)];
      if (actions) where.push(`action = ANY(${p.texts(actions)})`);
      if (subjectId !== undefined) where.push(`subject_id = ${p.add(subjectId)}`);
      if (since !== undefined) where.push(`at >= ${p.add(since)}`);
      if (until !== undefined) where.push(`at <= ${p.add(until)}`);
      if (cursor !== undefined) {
        const [at, seq] = decodeCursor('audit', cursor, ['number', 'number']);
        where.push(`(at, seq) ${order === 'asc' ? '>' : '<'} (${p.add(at)}, ${p.add(seq)})`);
      }
      const direction = order === 'asc' ? 'ASC' : 'DESC';
      const result = await db.query<AuditRow>(
        `SELECT ${COLUMNS}, seq FROM ${schema}.audit_log WHERE ${where.join(' AND ')}
          ORDER BY at ${direction}, seq ${direction} LIMIT ${p.add(limit + 1)}`,
        p.values,
      );
      return pageOf(result.rows, limit, entryOf, (row) => encodeCursor('audit', [int(row.at), int(row.seq)]));
    },
  };
}
