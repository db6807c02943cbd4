import { AsyncLocalStorage } from 'node:async_hooks';

interface OpenTransaction {
  /** Settles when the transaction commits or rolls back. */
  readonly ended: Promise<void>;
}

/**
 * Serialises the in-memory store around transactions. While a transaction's function runs, calls
 * on the outer store wait for it to end, except calls made from inside that function (found
 * through async context), which join it: waiting there would deadlock.
 */
export class TransactionGate {
  private readonly context = new AsyncLocalStorage<OpenTransaction>();
  private open: OpenTransaction | undefined;

  /** The open transaction, when the caller runs inside its function. */
  joined(): OpenTransaction | undefined {
    const own = this.context.getStore();
    return own !== undefined && own === this.open ? own : undefined;
  }

  /**
   * What the caller must wait for before it may go ahead: the open transaction's end, unless the
   * caller runs inside it. Callers loop until this is undefined and then act without awaiting in
   * between, so no transaction can slip in after the check.
   */
  blocker(): Promise<void> | undefined {
    if (this.open === undefined || this.joined()) return undefined;
    return this.open.ended;
  }

  /**
   * Waits for any open transaction, then runs `body` as the open one. `body` runs inside the
   * transaction's async context, so the outer store's calls from it join the transaction.
   */
  async exclusive<T>(body: () => Promise<T>): Promise<T> {
    for (let wait = this.blocker(); wait; wait = this.blocker()) await wait;
    let end!: () => void;
    const transaction: OpenTransaction = { ended: new Promise<void>((resolve) => (end = resolve)) };
    this.open = transaction;
    try {
      return await this.context.run(transaction, body);
    } finally {
      this.open = undefined;
      end();
    }
  }
}
