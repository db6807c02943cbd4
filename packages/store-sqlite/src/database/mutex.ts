/**
 * A first-come, first-served async lock. `node:sqlite` runs every statement synchronously, so a
 * single call can never interleave with another; the lock is what keeps other callers out while
 * a transaction is open across `await`s.
 */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private holders = 0;

  /** True while someone holds the lock or waits for it. */
  get busy(): boolean {
    return this.holders > 0;
  }

  /** Resolves with a release function once every earlier holder has released. */
  acquire(): Promise<() => void> {
    this.holders += 1;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ready = this.tail.then(() => {
      let done = false;
      return () => {
        if (done) return;
        done = true;
        this.holders -= 1;
        release();
      };
    });
    this.tail = this.tail.then(() => released);
    return ready;
  }
}
