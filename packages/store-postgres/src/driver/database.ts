import { AsyncLocalStorage } from 'node:async_hooks';
import { StrataError } from '@strata-memory/core/store';
import type { SqlClient, SqlQueryable, SqlResult } from '../client/sql-client.ts';
import { type MigrationResult, migrateSchema } from '../schema/migrate.ts';
import type { SchemaNames } from '../schema/migrations.ts';

/** One open transaction: its connection, and the queue that runs its store calls one at a time. */
interface TransactionContext {
  readonly connection: SqlQueryable;
  tail: Promise<unknown>;
  savepoints: number;
  /** What `transaction(fn)` handed to `fn`, for nested `transaction` calls to reuse. */
  handle?: unknown;
  /** The queue the transactions nested directly in this one take turns in. */
  children: { tail: Promise<unknown> };
}

/** A nested transaction's function runs at this level: its own nested calls queue here. */
interface NestedLevel {
  context: TransactionContext;
  children: { tail: Promise<unknown> };
}

/**
 * What every sub-store runs its SQL through. It migrates the schema once, on first use (a failed
 * attempt, e.g. while the server is down, is retried by the next call), and routes each statement
 * to the transaction running in the caller's async context, if any: so calls made inside
 * `store.transaction(fn)`, through `tx` or through the store itself, all join that transaction.
 */
export class Database {
  readonly client: SqlClient;
  /** Where reads outside transactions go, when a read replica is configured. */
  readonly replica: SqlClient | undefined;
  readonly schema: string;
  private readonly current = new AsyncLocalStorage<TransactionContext>();
  private readonly reading = new AsyncLocalStorage<true>();
  private readonly levels = new AsyncLocalStorage<NestedLevel>();
  private migration: Promise<MigrationResult> | undefined;
  private closed = false;
  private readonly storeName: string;

  constructor(options: { client: SqlClient; replica?: SqlClient; schema: string; storeName: string }) {
    this.client = options.client;
    this.replica = options.replica;
    this.schema = options.schema;
    this.storeName = options.storeName;
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new StrataError({
        code: 'store_unavailable',
        message: `the ${this.storeName} store is closed`,
        retryable: false,
      });
    }
  }

  /** Migrates on first call; resolves to the quoted schema names SQL is built with. */
  async names(): Promise<SchemaNames> {
    return (await this.migrate()).names;
  }

  migrate(): Promise<MigrationResult> {
    this.assertOpen();
    this.migration ??= migrateSchema(this.client, this.schema).catch((error: unknown) => {
      this.migration = undefined;
      throw error;
    });
    return this.migration;
  }

  /** The client a statement outside a transaction goes to: the replica for read-only calls. */
  private target(): SqlClient {
    return this.replica && this.reading.getStore() ? this.replica : this.client;
  }

  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<R>> {
    const context = this.current.getStore();
    if (context) return context.connection.query<R>(text, params);
    this.assertOpen();
    return this.target().query<R>(text, params);
  }

  /**
   * Runs a call that only reads. Outside a transaction its statements go to the read replica
   * when one is configured (it may lag the primary by the replication delay).
   */
  read<T>(fn: () => Promise<T>): Promise<T> {
    return this.replica ? this.reading.run(true, fn) : fn();
  }

  /**
   * Runs `fn` in a transaction: the caller's, when there is one (nested calls join it), else a
   * new one that commits when `fn` resolves and rolls back when it throws.
   */
  async atomic<T>(fn: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return fn();
    await this.names();
    return this.target().transaction((connection) =>
      this.current.run(
        { connection, tail: Promise.resolve(), savepoints: 0, children: { tail: Promise.resolve() } },
        fn,
      ),
    );
  }

  /**
   * Runs one store call. Inside a transaction, calls take turns and each runs under a
   * savepoint: a call that fails changes nothing and leaves the transaction usable (PostgreSQL
   * would otherwise refuse every later statement of an aborted transaction).
   */
  call<T>(fn: () => Promise<T>): Promise<T> {
    const context = this.current.getStore();
    if (!context) return fn();
    const run = async () => {
      context.savepoints += 1;
      const savepoint = `strata_call_${context.savepoints}`;
      await context.connection.query(`SAVEPOINT ${savepoint}`);
      try {
        const result = await fn();
        await context.connection.query(`RELEASE SAVEPOINT ${savepoint}`);
        return result;
      } catch (error) {
        await context.connection.query(`ROLLBACK TO SAVEPOINT ${savepoint}`).catch(() => undefined);
        throw error;
      }
    };
    const result = context.tail.then(run, run);
    context.tail = result.catch(() => undefined);
    return result;
  }

  /** Runs `statement` on the transaction's connection in its turn, after the calls queued before it. */
  private inTurn<T>(context: TransactionContext, statement: () => Promise<T>): Promise<T> {
    const result = context.tail.then(statement, statement);
    context.tail = result.catch(() => undefined);
    return result;
  }

  /**
   * Runs `fn` as a transaction nested in the caller's: a savepoint held across `fn`'s awaits, released
   * when it resolves and rolled back to when it throws (undoing only what `fn` wrote, and leaving the
   * outer transaction usable). Transactions nested in the same level take turns.
   */
  nested<T>(fn: () => Promise<T>): Promise<T> {
    const context = this.current.getStore();
    if (!context) return fn();
    const level = this.levels.getStore();
    const parent = level && level.context === context ? level.children : context.children;
    const run = async () => {
      context.savepoints += 1;
      const savepoint = `strata_nested_${context.savepoints}`;
      await this.inTurn(context, () => context.connection.query(`SAVEPOINT ${savepoint}`));
      let result: T;
      try {
        result = await this.levels.run({ context, children: { tail: Promise.resolve() } }, fn);
      } catch (error) {
        await this.inTurn(context, () =>
          context.connection.query(`ROLLBACK TO SAVEPOINT ${savepoint}`),
        ).catch(() => undefined);
        throw error;
      }
      await this.inTurn(context, () => context.connection.query(`RELEASE SAVEPOINT ${savepoint}`));
      return result;
    };
    const result = parent.tail.then(run, run);
    parent.tail = result.catch(() => undefined);
    return result;
  }

  /** True when the caller runs inside a transaction (its own `atomic` or a store transaction). */
  inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  /** The transaction handle of the caller's context, set by `openTransaction`. */
  transactionHandle(): unknown {
    return this.current.getStore()?.handle;
  }

  /**
   * Opens a transaction for `store.transaction(fn)`: `fn` gets `handle(bind)`, where `bind` runs
   * a call inside this transaction from any async context (so a `tx` passed elsewhere still
   * targets it).
   */
  async openTransaction<T, H>(
    handle: (bind: <R>(call: () => Promise<R>) => Promise<R>) => H,
    fn: (tx: H) => Promise<T>,
  ): Promise<T> {
    return this.atomic(async () => {
      const context = this.current.getStore()!;
      const tx = handle((call) => this.current.run(context, call));
      context.handle = tx;
      return fn(tx);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([this.client.close(), this.replica?.close()]);
  }
}
