import type { Pool, PoolClient } from 'pg';
import type { SqlClient, SqlQueryable, SqlResult } from './sql-client.ts';

export interface PoolClientOptions {
  /** End the pool on `close()` (true when the store created it). */
  ownsPool: boolean;
}

function resultOf<R>(result: { rows: R[]; rowCount: number | null }): SqlResult<R> {
  return { rows: result.rows, rowCount: result.rowCount ?? result.rows.length };
}

function queryable(target: Pool | PoolClient): SqlQueryable {
  return {
    async query<R>(text: string, params?: readonly unknown[]) {
      const result = await target.query(text, params as unknown[] | undefined);
      return resultOf(result as unknown as { rows: R[]; rowCount: number | null });
    },
  };
}

/**
 * A `SqlClient` over a node-postgres pool. Plain statements check a connection out for one
 * statement; a transaction keeps one connection from BEGIN to COMMIT and gives it back (or
 * destroys it, when the connection itself failed) afterwards. Nothing is kept on a connection
 * between statements (no session settings, no named prepared statements, no session advisory
 * locks), so the pool can sit behind PgBouncer in transaction mode.
 */
export function poolClient(pool: Pool, options: PoolClientOptions): SqlClient {
  const direct = queryable(pool);
  let closed = false;
  return {
    query: direct.query,
    async transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
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
        const result = await fn(queryable(connection));
        await connection.query('COMMIT');
        return result;
      } catch (error) {
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
