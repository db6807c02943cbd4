import {
  conflict,
  type JsonValue,
  type LedgerDriver,
  type LedgerEntry,
  type Scope,
} from '@strata-memory/core/store';
import type { Runner } from '../database/session.ts';
import type { Statements } from '../database/statements.ts';
import { pageClauses, type SortColumn, toPage } from '../sql/cursor.ts';
import { fromJson, setIfPresent, toJson } from '../sql/json-columns.ts';
import { allOf, exactScopeClause, type ScopeRow, scopeOfRow, scopeValues } from '../sql/scope-sql.ts';

interface LedgerRow extends ScopeRow {
  key: string;
  status: LedgerEntry['status'];
  owner: string;
  claimed_at: number;
  lease_until: number;
  completed_at: number | null;
  result: string | null;
}

function toEntry(row: LedgerRow): LedgerEntry {
  const entry: LedgerEntry = {
    scope: scopeOfRow(row),
    key: row.key,
    status: row.status,
    owner: row.owner,
    claimedAt: row.claimed_at,
    leaseUntil: row.lease_until,
  };
  setIfPresent(entry, 'completedAt', row.completed_at);
  if (row.result !== null) entry.result = fromJson<JsonValue>(row.result);
  return entry;
}

const BY_KEY: SortColumn[] = [{ expr: 'key', direction: 'asc' }];

/**
 * The idempotency ledger. A claim runs inside one `BEGIN IMMEDIATE` transaction, which holds the
 * database's write lock, so two claims of the same key (from any process) never both succeed.
 */
export function ledgerDriver(sql: Statements, run: Runner): LedgerDriver {
  const stored = (scope: Scope, key: string): LedgerRow | undefined => {
    const where = exactScopeClause(scope);
    return sql.get<LedgerRow>(`SELECT * FROM ledger WHERE ${where.sql} AND key = ?`, [...where.params, key]);
  };

  return {
    claim: ({ scope, key, owner, at, leaseMs }) =>
      run.write(() => {
        const existing = stored(scope, key);
        if (existing && (existing.status === 'done' || at < existing.lease_until)) {
          return { claimed: false, entry: toEntry(existing) };
        }
        sql.run(
          `INSERT INTO ledger (tenant, org_id, user_id, agent_id, thread_id, key, status, owner, claimed_at,
             lease_until, completed_at, result)
           VALUES (?, ?, ?, ?, ?, ?, 'claimed', ?, ?, ?, NULL, NULL)
           ON CONFLICT (tenant, org_id, user_id, agent_id, thread_id, key)
           DO UPDATE SET status = 'claimed', owner = excluded.owner, claimed_at = excluded.claimed_at,
             lease_until = excluded.lease_until, completed_at = NULL, result = NULL`,
          [...scopeValues(scope), key, owner, at, at + leaseMs],
        );
        const entry: LedgerEntry = {
          scope,
          key,
          status: 'claimed',
          owner,
          claimedAt: at,
          leaseUntil: at + leaseMs,
        };
        return { claimed: true, entry };
      }),

    complete: ({ scope, key, owner, at, result }) =>
      run.write(() => {
        const existing = stored(scope, key);
        if (!existing || existing.owner !== owner) {
          throw conflict(`ledger key "${key}" is not held by "${owner}"`, { key, owner: existing?.owner });
        }
        if (existing.status === 'done') return toEntry(existing);
        const row: LedgerRow = {
          ...existing,
          status: 'done',
          completed_at: at,
          result: result === undefined ? null : toJson(result),
        };
        const where = exactScopeClause(scope);
        sql.run(
          `UPDATE ledger SET status = 'done', completed_at = ?, result = ? WHERE ${where.sql} AND key = ?`,
          [at, row.result, ...where.params, key],
        );
        return toEntry(row);
      }),

    release: ({ scope, key, owner }) =>
      run.write(() => {
        const existing = stored(scope, key);
        if (existing?.status !== 'claimed' || existing.owner !== owner) return { released: false };
        const where = exactScopeClause(scope);
        sql.run(`DELETE FROM ledger WHERE ${where.sql} AND key = ?`, [...where.params, key]);
        return { released: true };
      }),

    get: ({ scope, key }) =>
      run.read(() => {
        const row = stored(scope, key);
        return row ? toEntry(row) : null;
      }),

    list: ({ scope, status, limit, cursor }) =>
      run.read(() => {
        const page = { listing: 'ledger', columns: BY_KEY, limit, cursor };
        const { after, orderBy, limit: take } = pageClauses(page);
        const where = allOf(
          exactScopeClause(scope),
          status === undefined ? undefined : { sql: 'status = ?', params: [status] },
          after,
        );
        const rows = sql.all<LedgerRow>(
          `SELECT * FROM ledger WHERE ${where.sql} ORDER BY ${orderBy} LIMIT ?`,
          [...where.params, take],
        );
        return toPage(page, rows, (r) => [r.key], toEntry);
      }),
  };
}
