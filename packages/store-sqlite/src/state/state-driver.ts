import {
  conflict,
  type JsonValue,
  type Scope,
  type StateDriver,
  type StateEntry,
} from '@strata-memory/core/store';
import type { Runner } from '../database/session.ts';
import type { Statements } from '../database/statements.ts';
import { pageClauses, type SortColumn, toPage } from '../sql/cursor.ts';
import { fromJson, toJson } from '../sql/json-columns.ts';
import { allOf, exactScopeClause, type ScopeRow, scopeOfRow, scopeValues } from '../sql/scope-sql.ts';

interface StateRow extends ScopeRow {
  key: string;
  value: string;
  version: number;
  updated_at: number;
}

function toEntry(row: StateRow): StateEntry {
  return {
    scope: scopeOfRow(row),
    key: row.key,
    value: fromJson<JsonValue>(row.value),
    version: row.version,
    updatedAt: row.updated_at,
  };
}

const BY_KEY: SortColumn[] = [{ expr: 'key', direction: 'asc' }];

/** Key-value checkpoints at an exact scope, with optimistic versions. */
export function stateDriver(sql: Statements, run: Runner): StateDriver {
  const stored = (scope: Scope, key: string): StateRow | undefined => {
    const where = exactScopeClause(scope);
    return sql.get<StateRow>(`SELECT * FROM state WHERE ${where.sql} AND key = ?`, [...where.params, key]);
  };

  return {
    get: ({ scope, key }) =>
      run.read(() => {
        const row = stored(scope, key);
        return row ? toEntry(row) : null;
      }),

    set: ({ scope, key, value, expectedVersion, at }) =>
      run.write(() => {
        const version = stored(scope, key)?.version ?? 0;
        if (expectedVersion !== undefined && expectedVersion !== version) {
          throw conflict(`state "${key}" is at version ${version}, not ${expectedVersion}`, { key, version });
        }
        sql.run(
          `INSERT INTO state (tenant, org_id, user_id, agent_id, thread_id, key, value, version, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (tenant, org_id, user_id, agent_id, thread_id, key)
           DO UPDATE SET value = excluded.value, version = excluded.version, updated_at = excluded.updated_at`,
          [...scopeValues(scope), key, toJson(value), version + 1, at],
        );
        return { scope, key, value, version: version + 1, updatedAt: at };
      }),

    delete: ({ scope, key, expectedVersion }) =>
      run.write(() => {
        const row = stored(scope, key);
        if (expectedVersion !== undefined && row?.version !== expectedVersion) {
          throw conflict(`state "${key}" is at version ${row?.version ?? 0}, not ${expectedVersion}`, {
            key,
            version: row?.version ?? 0,
          });
        }
        if (!row) return { deleted: false };
        const where = exactScopeClause(scope);
        sql.run(`DELETE FROM state WHERE ${where.sql} AND key = ?`, [...where.params, key]);
        return { deleted: true };
      }),

    restore: ({ entries }) =>
      run.write(() => {
        for (const entry of entries) {
          if (stored(entry.scope, entry.key)) {
            throw conflict(`state "${entry.key}" already exists in this scope`, { key: entry.key });
          }
          sql.run(
            `INSERT INTO state (tenant, org_id, user_id, agent_id, thread_id, key, value, version, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [...scopeValues(entry.scope), entry.key, toJson(entry.value), entry.version, entry.updatedAt],
          );
        }
        return { restored: entries.length };
      }),

    list: ({ scope, prefix, limit, cursor }) =>
      run.read(() => {
        const page = { listing: 'state', columns: BY_KEY, limit, cursor };
        const { after, orderBy, limit: take } = pageClauses(page);
        const where = allOf(
          exactScopeClause(scope),
          prefix === undefined
            ? undefined
            : { sql: 'substr(key, 1, length(?)) = ?', params: [prefix, prefix] },
          after,
        );
        const rows = sql.all<StateRow>(`SELECT * FROM state WHERE ${where.sql} ORDER BY ${orderBy} LIMIT ?`, [
          ...where.params,
          take,
        ]);
        return toPage(page, rows, (r) => [r.key], toEntry);
      }),
  };
}
