import {
  conflict,
  type JsonValue,
  type Scope,
  type StateDriver,
  type StateEntry,
} from '@strata-memory/core/store';
import { decodeCursor, encodeCursor, pageOf } from '../sql/cursor.ts';
import { Params } from '../sql/params.ts';
import { exactScopeSql, SCOPE_COLUMN_LIST, scopeValuesSql } from '../sql/scope-filter.ts';
import type { Database } from './database.ts';
import { int, type ScopeRow, scopeOfRow } from './rows.ts';

interface StateRow extends ScopeRow {
  key: string;
  value: unknown;
  version: number;
  updated_at: unknown;
}

const COLUMNS = `${SCOPE_COLUMN_LIST}, key, value, version, updated_at`;

function entryOf(row: StateRow): StateEntry {
  return {
    scope: scopeOfRow(row),
    key: row.key,
    value: row.value as JsonValue,
    version: Number(row.version),
    updatedAt: int(row.updated_at),
  };
}

export function stateDriver(db: Database): StateDriver {
  async function versionOf(schema: string, scope: Scope, key: string): Promise<number> {
    const p = new Params();
    const result = await db.query<{ version: number }>(
      `SELECT version FROM ${schema}.state WHERE ${exactScopeSql(scope, p)} AND key = ${p.add(key)}`,
      p.values,
    );
    return Number(result.rows[0]?.version ?? 0);
  }

  function versionConflict(key: string, version: number, expected: number) {
    return conflict(`state "${key}" is at version ${version}, not ${expected}`, { key, version });
  }

  return {
    async get({ scope, key }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query<StateRow>(
        `SELECT ${COLUMNS} FROM ${schema}.state WHERE ${exactScopeSql(scope, p)} AND key = ${p.add(key)}`,
        p.values,
      );
      return result.rows[0] ? entryOf(result.rows[0]) : null;
    },

    async set({ scope, key, value, expectedVersion, at }) {
      const { schema } = await db.names();
      const p = new Params();
      let sql: string;
      if (expectedVersion === undefined || expectedVersion === 0) {
        // Versions come from the row itself, so concurrent writers each get their own number.
        sql = `INSERT INTO ${schema}.state AS s (${COLUMNS})
               VALUES (${scopeValuesSql(scope, p)}, ${p.add(key)}, ${p.json(value)}, 1, ${p.add(at)})
               ON CONFLICT (${SCOPE_COLUMN_LIST}, key) ${
                 expectedVersion === 0
                   ? 'DO NOTHING'
                   : 'DO UPDATE SET value = EXCLUDED.value, version = s.version + 1, updated_at = EXCLUDED.updated_at'
               }
               RETURNING ${COLUMNS}`;
      } else {
        sql = `UPDATE ${schema}.state SET value = ${p.json(value)}, version = version + 1, updated_at = ${p.add(at)}
                WHERE ${exactScopeSql(scope, p)} AND key = ${p.add(key)} AND version = ${p.add(expectedVersion)}
                RETURNING ${COLUMNS}`;
      }
      const result = await db.query<StateRow>(sql, p.values);
      if (result.rows[0]) return entryOf(result.rows[0]);
      throw versionConflict(key, await versionOf(schema, scope, key), expectedVersion ?? 0);
    },

    async delete({ scope, key, expectedVersion }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [exactScopeSql(scope, p), `key = ${p.add(key)}`];
      if (expectedVersion !== undefined) where.push(`version = ${p.add(expectedVersion)}`);
      const result = await db.query(`DELETE FROM ${schema}.state WHERE ${where.join(' AND ')}`, p.values);
      if (expectedVersion !== undefined && result.rowCount === 0) {
        throw versionConflict(key, await versionOf(schema, scope, key), expectedVersion);
      }
      return { deleted: result.rowCount > 0 };
    },

    async restore({ entries }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        for (const entry of entries) {
          const p = new Params();
          const inserted = await db.query(
            `INSERT INTO ${schema}.state (${COLUMNS})
             VALUES (${scopeValuesSql(entry.scope, p)}, ${p.add(entry.key)}, ${p.json(entry.value)},
               ${p.add(entry.version)}, ${p.add(entry.updatedAt)})
             ON CONFLICT DO NOTHING`,
            p.values,
          );
          if (inserted.rowCount === 0) {
            throw conflict(`state "${entry.key}" already exists in this scope`, { key: entry.key });
          }
        }
        return { restored: entries.length };
      });
    },

    async list({ scope, prefix, limit, cursor }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [exactScopeSql(scope, p)];
      if (prefix !== undefined) where.push(`starts_with(key, ${p.add(prefix)})`);
      if (cursor !== undefined) where.push(`key > ${p.add(decodeCursor('state', cursor, ['string'])[0])}`);
      const result = await db.query<StateRow>(
        `SELECT ${COLUMNS} FROM ${schema}.state WHERE ${where.join(' AND ')} ORDER BY key LIMIT ${p.add(limit + 1)}`,
        p.values,
      );
      return pageOf(result.rows, limit, entryOf, (row) => encodeCursor('state', [row.key]));
    },
  };
}
