import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { SqlClient, SqlQueryable, SqlResult } from '../client/sql-client.ts';

/** The part of a PGlite instance (or its transaction) the client uses. */
type PgliteQueryable = Pick<PGlite | Transaction, 'query'>;

function queryable(target: PgliteQueryable): SqlQueryable {
  return {
    async query<R>(text: string, params?: readonly unknown[]): Promise<SqlResult<R>> {
      const result = await target.query<R>(text, params as unknown[] | undefined);
      return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
    },
  };
}

export interface PgliteClientOptions {
  /** Close the database on `close()` (true when the store opened it). */
  ownsDatabase: boolean;
}

/**
 * A `SqlClient` over PGlite. PGlite runs one statement at a time and its `transaction` holds an
 * exclusive lock, so statements from outside a running transaction wait until it ends.
 * `open` is called once, on first use, so creating a store never blocks.
 */
export function pgliteClient(open: () => Promise<PGlite>, options: PgliteClientOptions): SqlClient {
  let database: Promise<PGlite> | undefined;
  const db = () => {
    database ??= open().catch((error: unknown) => {
      database = undefined;
      throw error;
    });
    return database;
  };
  return {
    async query<R>(text: string, params?: readonly unknown[]) {
      return queryable(await db()).query<R>(text, params);
    },
    async transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T> {
      return (await db()).transaction((tx) => fn(queryable(tx)));
    },
    async close() {
      if (!database || !options.ownsDatabase) return;
      const opened = await database;
      if (!opened.closed) await opened.close();
    },
  };
}
