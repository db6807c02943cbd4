/**
 * The small client interface the driver talks to. Two implementations ship: `poolClient` over a
 * `pg.Pool` (a real PostgreSQL server, through PgBouncer or not) and `pgliteClient` over PGlite
 * (PostgreSQL compiled to WebAssembly, in process). Every query the driver sends is plain SQL with
 * `$n` parameters, so it runs unchanged on both.
 */

export interface SqlResult<R> {
  rows: R[];
  /** Rows changed by an INSERT/UPDATE/DELETE, or returned by a SELECT. */
  rowCount: number;
}

/** Something that runs one statement: the pool, or one connection inside a transaction. */
export interface SqlQueryable {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<R>>;
}

export interface TransactionOptions {
  /**
   * Its statements have no client-side time limit (the pool's query timeout): for schema
   * migrations, which may copy or index large tables.
   */
  untimed?: boolean;
}

export interface SqlClient extends SqlQueryable {
  /**
   * Runs `fn` inside BEGIN … COMMIT on one connection; rolls back and rethrows when `fn` throws.
   * Every query of `fn` must go through the `tx` it receives.
   */
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Releases the connections (a pool the caller passed in is left open). */
  close(): Promise<void>;
}
