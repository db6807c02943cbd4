import {
  conflict,
  type JsonValue,
  type LedgerDriver,
  type LedgerEntry,
  type Scope,
} from '@strata-memory/core/store';
import { decodeCursor, encodeCursor, pageOf } from '../sql/cursor.ts';
import { Params } from '../sql/params.ts';
import { exactScopeSql, SCOPE_COLUMN_LIST, scopeValuesSql } from '../sql/scope-filter.ts';
import type { Database } from './database.ts';
import { compact, int, optionalInt, type ScopeRow, scopeOfRow } from './rows.ts';

interface LedgerRow extends ScopeRow {
  key: string;
  status: LedgerEntry['status'];
  owner: string;
  claimed_at: unknown;
  lease_until: unknown;
  completed_at: unknown;
  result: unknown;
}

const COLUMNS = `${SCOPE_COLUMN_LIST}, key, status, owner, claimed_at, lease_until, completed_at, result`;

function entryOf(row: LedgerRow): LedgerEntry {
  return compact({
    scope: scopeOfRow(row),
    key: row.key,
    status: row.status,
    owner: row.owner,
    claimedAt: int(row.claimed_at),
    leaseUntil: int(row.lease_until),
    completedAt: optionalInt(row.completed_at),
    result: row.result === null ? undefined : (row.result as JsonValue),
  });
}

export function ledgerDriver(db: Database): LedgerDriver {
  async function read(
    schema: string,
    scope: Scope,
    key: string,
    lock: boolean,
  ): Promise<LedgerRow | undefined> {
    const p = new Params();
    const result = await db.query<LedgerRow>(
      `SELECT ${COLUMNS} FROM ${schema}.ledger WHERE ${exactScopeSql(scope, p)} AND key = ${p.add(key)}${lock ? ' FOR UPDATE' : ''}`,
      p.values,
    );
    return result.rows[0];
  }

  return {
    async claim({ scope, key, owner, at, leaseMs }) {
      const { schema } = await db.names();
      // One statement decides: a new key is inserted, an expired claim is taken over, anything
      // else is left alone. The row lock of ON CONFLICT serialises concurrent claims.
      for (;;) {
        const p = new Params();
        const taken = await db.query<LedgerRow>(
          `INSERT INTO ${schema}.ledger AS l (${COLUMNS})
           VALUES (${scopeValuesSql(scope, p)}, ${p.add(key)}, 'claimed', ${p.add(owner)}, ${p.add(at)},
             ${p.add(at + leaseMs)}, NULL, NULL)
           ON CONFLICT (${SCOPE_COLUMN_LIST}, key) DO UPDATE
              SET status = 'claimed', owner = EXCLUDED.owner, claimed_at = EXCLUDED.claimed_at,
                  lease_until = EXCLUDED.lease_until, completed_at = NULL, result = NULL
            WHERE l.status = 'claimed' AND l.lease_until <= EXCLUDED.claimed_at
           RETURNING ${COLUMNS}`,
          p.values,
        );
        if (taken.rows[0]) return { claimed: true, entry: entryOf(taken.rows[0]) };
        const existing = await read(schema, scope, key, false);
        // Released between the two statements: try again.
        if (existing) return { claimed: false, entry: entryOf(existing) };
      }
    },

    async complete({ scope, key, owner, at, result }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        const existing = await read(schema, scope, key, true);
        if (!existing || existing.owner !== owner) {
          throw conflict(`ledger key "${key}" is not held by "${owner}"`, { key, owner: existing?.owner });
        }
        if (existing.status === 'done') return entryOf(existing);
        const p = new Params();
        const updated = await db.query<LedgerRow>(
          `UPDATE ${schema}.ledger SET status = 'done', completed_at = ${p.add(at)},
                  result = ${result === undefined ? 'NULL' : p.json(result)}
            WHERE ${exactScopeSql(scope, p)} AND key = ${p.add(key)}
            RETURNING ${COLUMNS}`,
          p.values,
        );
        return entryOf(updated.rows[0]!);
      });
    },

    async release({ scope, key, owner }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query(
        `DELETE FROM ${schema}.ledger
          WHERE ${exactScopeSql(scope, p)} AND key = ${p.add(key)} AND status = 'claimed' AND owner = ${p.add(owner)}`,
        p.values,
      );
      return { released: result.rowCount > 0 };
    },

    async get({ scope, key }) {
      const { schema } = await db.names();
      const row = await read(schema, scope, key, false);
      return row ? entryOf(row) : null;
    },

    async list({ scope, status, limit, cursor }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [exactScopeSql(scope, p)];
      if (status !== undefined) where.push(`status = ${p.add(status)}`);
      if (cursor !== undefined) where.push(`key > ${p.add(decodeCursor('ledger', cursor, ['string'])[0])}`);
      const result = await db.query<LedgerRow>(
        `SELECT ${COLUMNS} FROM ${schema}.ledger WHERE ${where.join(' AND ')} ORDER BY key LIMIT ${p.add(limit + 1)}`,
        p.values,
      );
      return pageOf(result.rows, limit, entryOf, (row) => encodeCursor('ledger', [row.key]));
    },
  };
}
