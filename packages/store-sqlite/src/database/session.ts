import { AsyncLocalStorage } from 'node:async_hooks';
import type { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { StrataError } from '@strata-memory/core/store';
import { Mutex } from './mutex.ts';
import { isBusyError } from './native-errors.ts';

/** How a sub-store runs its SQL: every call is one atomic unit. */
export interface Runner {
  /** Runs `fn` on one consistent snapshot. */
  read<T>(fn: () => T): Promise<T>;
  /** Runs `fn` atomically: if it throws, nothing it wrote stays. */
  write<T>(fn: () => T): Promise<T>;
}

interface OpenTransaction {
  open: boolean;
}

/** Where a caller runs: inside a transaction, at one level of nesting. */
interface TransactionLevel {
  transaction: OpenTransaction;
  /**
   * Serialises the transactions nested directly in this level, whose savepoints stay open across
   * `await`s (one nested deeper runs inside its parent's turn, under a lock of its own).
   */
  children: Mutex;
}

export interface SessionOptions {
  /** How long a write waits in total for another connection's lock before `store_unavailable`. */
  busyTimeoutMs: number;
  /**
   * After this many committed writes, refresh the planner's statistics (`PRAGMA optimize`), so a
   * connection that lives while its tables grow keeps planning with their current sizes.
   */
  optimizeEveryWrites?: number;
}

/** Committed writes between two refreshes of the planner's statistics. */
const OPTIMIZE_EVERY_WRITES = 1_000;

/**
 * One SQLite connection shared by every call of a store.
 *
 * `node:sqlite` is synchronous, so a call's SQL never interleaves with another's; what needs
 * guarding is a transaction held open across `await`s. A FIFO mutex makes every call outside the
 * running transaction wait until it ends. Calls made from inside the transaction's function
 * (tracked with AsyncLocalStorage) join it instead, each inside its own savepoint, so a failed
 * call inside a transaction rolls back only its own writes. A nested `transaction` is a savepoint
 * held across its function's `await`s: its failure undoes its own writes only.
 *
 * Writes start with `BEGIN IMMEDIATE`, which takes the database's write lock up front, so two
 * processes never deadlock upgrading read locks. When another process holds the lock, SQLite's
 * busy handler waits a few milliseconds (it blocks the thread), then the call yields to the event
 * loop and retries with backoff until `busyTimeoutMs` has passed; after that the native busy
 * error surfaces (mapped to `store_unavailable`).
 */
export class Session {
  private readonly mutex = new Mutex();
  private readonly context = new AsyncLocalStorage<TransactionLevel>();
  private current: OpenTransaction | undefined;
  private savepointCounter = 0;
  private closed = false;
  private closeWhenIdle = false;
  private truncateWalAfterCommit = false;
  private writesSinceOptimize = 0;
  private readonly rollbackListeners: Array<() => void> = [];

  readonly db: DatabaseSync;
  private readonly options: SessionOptions;

  constructor(db: DatabaseSync, options: SessionOptions) {
    this.db = db;
    this.options = options;
  }

  /** The runner of calls made on the store itself (they wait for a running transaction). */
  readonly outer: Runner = {
    read: (fn) => this.runOutside('read', fn),
    write: (fn) => this.runOutside('write', fn),
  };

  /** Called after any rollback, so caches of schema objects created in the undone work are dropped. */
  onRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  /** Runs `fn` as one transaction; `fn` gets a runner bound to it. */
  async transaction<T>(fn: (runner: Runner) => Promise<T>): Promise<T> {
    const joined = this.joinedLevel();
    if (joined) return this.nestedTransaction(joined, fn);
    const release = await this.mutex.acquire();
    try {
      this.assertOpen();
      await this.retryWhileBusy(() => this.db.exec('BEGIN IMMEDIATE'));
      const state: OpenTransaction = { open: true };
      this.current = state;
      try {
        const level: TransactionLevel = { transaction: state, children: new Mutex() };
        const result = await this.context.run(level, () => fn(this.runnerFor(state)));
        this.db.exec('COMMIT');
        if (this.truncateWalAfterCommit) this.checkpointAfterCommit();
        this.countWrite();
        return result;
      } catch (error) {
        this.rollbackQuietly();
        throw error;
      } finally {
        state.open = false;
        this.current = undefined;
        this.truncateWalAfterCommit = false;
        if (this.closeWhenIdle) this.closeConnection();
      }
    } finally {
      release();
    }
  }

  /**
   * Copies every committed page from the WAL into the database file and truncates the WAL to zero
   * bytes (`wal_checkpoint(TRUNCATE)`), so earlier versions of changed pages, erased text among
   * them, no longer sit in the WAL. Called from inside a transaction, it runs once the outermost
   * transaction commits (and not at all if it rolls back). Returns false when another connection's
   * open read kept the WAL from being emptied; the next checkpoint does it.
   */
  async truncateWal(): Promise<boolean> {
    if (this.joinedTransaction()) {
      this.assertOpen();
      this.truncateWalAfterCommit = true;
      return true;
    }
    const release = await this.mutex.acquire();
    try {
      this.assertOpen();
      return await this.retryWhileBusy(() => this.checkpointTruncate());
    } finally {
      release();
    }
  }

  /** The checkpoint a transaction asked for: its commit stands whatever the checkpoint meets. */
  private checkpointAfterCommit(): void {
    try {
      this.checkpointTruncate();
    } catch {
      // Busy or failing: the WAL keeps its frames until the next checkpoint empties it.
    }
  }

  private checkpointTruncate(): boolean {
    this.truncateWalAfterCommit = false;
    const result = this.db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy?: number } | undefined;
    return result?.busy !== 1;
  }

  /** Waits for running calls, then closes the connection. Later calls fail with `store_unavailable`. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.joinedTransaction()) {
      // Called from inside a transaction's function: waiting for the lock would deadlock. Later
      // calls fail at once; the connection closes when the transaction ends.
      this.closed = true;
      this.closeWhenIdle = true;
      return;
    }
    const release = await this.mutex.acquire();
    try {
      if (this.closed && !this.closeWhenIdle) return;
      this.closed = true;
      this.closeConnection();
    } finally {
      release();
    }
  }

  /**
   * Counts a committed write; every `optimizeEveryWrites`, lets SQLite refresh the statistics of
   * the tables that changed much since they were last analysed (usually nothing to do). Without
   * this a long-lived connection would plan every query of a table that grew from empty as if it
   * were still small, until it closes.
   */
  private countWrite(): void {
    this.writesSinceOptimize += 1;
    if (this.writesSinceOptimize < (this.options.optimizeEveryWrites ?? OPTIMIZE_EVERY_WRITES)) return;
    this.writesSinceOptimize = 0;
    try {
      this.db.exec('PRAGMA optimize');
    } catch {
      // Best effort (another connection may hold the write lock): the next count tries again.
    }
  }

  private closeConnection(): void {
    this.closeWhenIdle = false;
    try {
      this.db.exec('PRAGMA optimize');
    } catch {
      // Best effort: `optimize` only refreshes planner statistics.
    }
    this.db.close();
  }

  private runnerFor(state: OpenTransaction): Runner {
    return {
      read: async (fn) => {
        this.assertActive(state);
        return fn();
      },
      write: async (fn) => {
        this.assertActive(state);
        return this.withSavepoint(fn);
      },
    };
  }

  private async runOutside<T>(mode: 'read' | 'write', fn: () => T): Promise<T> {
    if (this.joinedTransaction()) {
      this.assertOpen();
      return mode === 'write' ? this.withSavepoint(fn) : fn();
    }
    const release = await this.mutex.acquire();
    try {
      this.assertOpen();
      return await this.retryWhileBusy(() => this.unit(mode, fn));
    } finally {
      release();
    }
  }

  private unit<T>(mode: 'read' | 'write', fn: () => T): T {
    this.db.exec(mode === 'write' ? 'BEGIN IMMEDIATE' : 'BEGIN');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      if (mode === 'write') this.countWrite();
      return result;
    } catch (error) {
      this.rollbackQuietly();
      throw error;
    }
  }

  private async nestedTransaction<T>(
    parent: TransactionLevel,
    fn: (runner: Runner) => Promise<T>,
  ): Promise<T> {
    const state = parent.transaction;
    const release = await parent.children.acquire();
    try {
      this.assertActive(state);
      const name = this.openSavepoint();
      try {
        const level: TransactionLevel = { transaction: state, children: new Mutex() };
        const result = await this.context.run(level, () => fn(this.runnerFor(state)));
        this.db.exec(`RELEASE ${name}`);
        return result;
      } catch (error) {
        this.rollbackToSavepoint(name);
        throw error;
      }
    } finally {
      release();
    }
  }

  private withSavepoint<T>(fn: () => T): T {
    const name = this.openSavepoint();
    try {
      const result = fn();
      this.db.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      this.rollbackToSavepoint(name);
      throw error;
    }
  }

  private openSavepoint(): string {
    this.savepointCounter += 1;
    const name = `strata_sp_${this.savepointCounter}`;
    this.db.exec(`SAVEPOINT ${name}`);
    return name;
  }

  private rollbackToSavepoint(name: string): void {
    this.notifyRollback();
    try {
      this.db.exec(`ROLLBACK TO ${name}`);
      this.db.exec(`RELEASE ${name}`);
    } catch (error) {
      // SQLite ends the whole transaction itself after some errors (SQLITE_FULL, SQLITE_IOERR);
      // then the savepoint is gone and the caller's error is what matters.
      if (!/no such savepoint/i.test(String(error))) throw error;
    }
  }

  private rollbackQuietly(): void {
    this.notifyRollback();
    try {
      this.db.exec('ROLLBACK');
    } catch (error) {
      // Already rolled back by SQLite itself after a severe error: nothing left to undo.
      if (!/no transaction is active/i.test(String(error))) throw error;
    }
  }

  private notifyRollback(): void {
    for (const listener of this.rollbackListeners) listener();
  }

  private joinedLevel(): TransactionLevel | undefined {
    const level = this.context.getStore();
    return level?.transaction.open && level.transaction === this.current ? level : undefined;
  }

  private joinedTransaction(): OpenTransaction | undefined {
    return this.joinedLevel()?.transaction;
  }

  private async retryWhileBusy<T>(attempt: () => T): Promise<T> {
    const deadline = Date.now() + this.options.busyTimeoutMs;
    let delay = 5;
    for (;;) {
      try {
        return attempt();
      } catch (error) {
        if (!isBusyError(error) || Date.now() >= deadline) throw error;
      }
      await sleep(delay + Math.random() * delay);
      delay = Math.min(delay * 2, 100);
    }
  }

  private assertOpen(): void {
    if (this.closed) {
      throw new StrataError({
        code: 'store_unavailable',
        message: 'The SQLite store is closed.',
        retryable: false,
      });
    }
  }

  private assertActive(state: OpenTransaction): void {
    if (!state.open) {
      throw new StrataError({
        code: 'invalid_input',
        message: 'This transaction has already ended: use the store, or start a new transaction.',
      });
    }
    this.assertOpen();
  }
}
