/**
 * The undo log that makes every in-memory write atomic. Each change to a table records how to
 * reverse itself; a failed call, or a transaction whose function throws, replays the log
 * backwards to the point where it started.
 */
export class Journal {
  private readonly log: Array<() => void> = [];
  private transactionOpen = false;

  /** Remembers how to reverse a change just made. */
  record(undo: () => void): void {
    this.log.push(undo);
  }

  /**
   * Runs one store call atomically: if `fn` throws, every change it made is reversed before the
   * error propagates. Outside a transaction the log is dropped once the call succeeds.
   */
  atomic<T>(fn: () => T): T {
    const mark = this.log.length;
    try {
      const result = fn();
      if (!this.transactionOpen) this.log.length = 0;
      return result;
    } catch (error) {
      this.undoTo(mark);
      throw error;
    }
  }

  begin(): void {
    this.transactionOpen = true;
    this.log.length = 0;
  }

  commit(): void {
    this.transactionOpen = false;
    this.log.length = 0;
  }

  rollback(): void {
    this.undoTo(0);
    this.transactionOpen = false;
  }

  /** A savepoint inside the open transaction: pass it to `undoTo` to reverse what follows it. */
  mark(): number {
    return this.log.length;
  }

  /** Reverses every change recorded after `mark`, newest first. */
  undoTo(mark: number): void {
    while (this.log.length > mark) this.log.pop()!();
  }
}
