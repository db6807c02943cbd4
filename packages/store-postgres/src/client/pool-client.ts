import type { Pool, PoolClient, QueryConfig } from 'pg';
import { isConnectionFailure } from '../errors/map-error.ts';
import { StatementPreparation } from './prepared-statements.ts';
import type { SqlClient, SqlQueryable, SqlResult, TransactionOptions } from './sql-client.ts';

/** The longest timer Node allows (about 24.8 days): a statement with it has no practical time limit. */
const UNTIMED_MS = 2_147_483_647;

export interface PoolClientOptions {
  /** End the pool on `close()` (true when the store created it). */
  ownsPool: boolean;
  /**
   * Run the statements that recur as named prepared statements (see `StatementPreparation`).
   * Default true. Behind PgBouncer 1.21 or later, set its `max_prepared_statements`; behind an
   * older pooler in transaction mode, pass false (the client also switches it off by itself at the
   * first sign of one).
   */
  prepareStatements?: boolean | undefined;
}

function resultOf<R>(result: { rows: unknown[]; rowCount: number | null }): SqlResult<R> {
  return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
}

function queryable(target: Pool | PoolClient, untimed = false): SqlQueryable {
  return {
    async query<R>(text: string, params?: readonly unknown[]) {
      const values = params as unknown[] | undefined;
      if (!untimed) return resultOf<R>(await target.query(text, values));
      // A query's own `query_timeout` overrides the pool's (node-postgres reads it from the query
      // config; @types/pg does not declare it).
      const config: QueryConfig & { query_timeout: number } = {
        text,
        ...(values ? { values } : {}),
        query_timeout: UNTIMED_MS,
      };
      return resultOf<R>(await target.query(config));
    },
  };
}

/** Statements outside transactions, the recurring ones prepared (see `StatementPreparation`). */
function preparedQueryable(pool: Pool, preparation: StatementPreparation): SqlQueryable {
  return {
    async query<R>(text: string, params?: readonly unknown[]) {
      const values = params as unknown[] | undefined;
      const name = preparation.nameFor(text, params);
      if (name === undefined) return resultOf<R>(await pool.query(text, values));
      try {
        return resultOf<R>(await pool.query({ name, text, ...(values ? { values } : {}) }));
      } catch (error) {
        if (preparation.failed(text, error) === 'throw') throw error;
        return resultOf<R>(await pool.query(text, values));
      }
    },
  };
}

/**
 * A `SqlClient` over a node-postgres pool. Plain statements check a connection out for one
 * statement; a transaction keeps one connection from BEGIN to COMMIT and gives it back (or
 * destroys it, when the connection itself failed) afterwards. Nothing but prepared statements is
 * kept on a connection between statements (no session settings, no session advisory locks), and
 * statements inside transactions are never prepared, so the pool can sit behind PgBouncer in
 * transaction mode (1.21 or later with `max_prepared_statements` set, or `prepareStatements:
 * false`).
 */
export function poolClient(pool: Pool, options: PoolClientOptions): SqlClient {
  const direct =
    options.prepareStatements === false
      ? queryable(pool)
      : preparedQueryable(pool, new StatementPreparation());
  let closed = false;
  return {
    query: direct.query,
    async transaction<T>(
      fn: (tx: SqlQueryable) => Promise<T>,
      transactionOptions?: TransactionOptions,
    ): Promise<T> {
      const connection = await pool.connect();
      let broken: Error | undefined;
      // A connection that drops while checked out emits 'error' on the client, not the pool; the
      // pending query rejects with it anyway, so the event only needs a listener (Node would
      // otherwise end the process) and marks the connection as not reusable.
      const onError = (error: Error) => {
        broken = error;
      };
      connection.on('error', onError);
      try {
        await connection.query('BEGIN');
        const result = await fn(queryable(connection, transactionOptions?.untimed === true));
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        if (broken !== undefined || isConnectionFailure(error)) {
          // The connection is gone or stopped answering (a statement outlived the query timeout):
          // a ROLLBACK would wait as long again. Destroying the connection ends the transaction on
          // the server, which rolls it back.
          broken ??= error instanceof Error ? error : new Error(String(error));
          throw error;
        }
        try {
          await connection.query('ROLLBACK');
        } catch (rollbackError) {
          // The connection is unusable (the server went away): destroy it instead of pooling it.
          broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        }
        throw error;
      } finally {
        connection.off('error', onError);
        connection.release(broken);
      }
    },
    async close() {
      if (closed || !options.ownsPool) return;
      closed = true;
      await pool.end();
    },
  };
}
