import { type Scope, tenantOf } from '../../scope/scope.ts';
import type { Journal } from './journal.ts';

/** Called with the row before and after a change (`undefined` for an insert or a delete). */
export type ChangeHook<R> = (before: R | undefined, after: R | undefined) => void;

/**
 * A journaled map of rows, partitioned by tenant so every read scans one tenant's rows only.
 * Rows are treated as immutable: a change stores a new row object, so the undo log can put the
 * old one back and indexes can compare before and after.
 */
export class Table<R> {
  private readonly rows = new Map<string, R>();
  private readonly tenants = new Map<string, Map<string, R>>();
  private readonly hooks: ChangeHook<R>[] = [];
  private readonly journal: Journal;
  private readonly scopeOf: (row: R) => Scope;

  constructor(journal: Journal, scopeOf: (row: R) => Scope) {
    this.journal = journal;
    this.scopeOf = scopeOf;
  }

  /** Keeps a secondary index in step with every change, including undone ones. */
  onChange(hook: ChangeHook<R>): void {
    this.hooks.push(hook);
  }

  get(key: string): R | undefined {
    return this.rows.get(key);
  }

  has(key: string): boolean {
    return this.rows.has(key);
  }

  get size(): number {
    return this.rows.size;
  }

  /** Rows of one tenant (`tenantOf(scope)`), in no particular order. */
  tenantRows(tenant: string): Iterable<R> {
    return this.tenants.get(tenant)?.values() ?? [];
  }

  set(key: string, row: R): void {
    const before = this.rows.get(key);
    this.write(key, row);
    this.journal.record(() => (before === undefined ? this.remove(key) : this.write(key, before)));
  }

  delete(key: string): boolean {
    const before = this.rows.get(key);
    if (before === undefined) return false;
    this.remove(key);
    this.journal.record(() => this.write(key, before));
    return true;
  }

  private write(key: string, row: R): void {
    const before = this.rows.get(key);
    if (before !== undefined) this.partition(before).delete(key);
    this.rows.set(key, row);
    this.partition(row).set(key, row);
    for (const hook of this.hooks) hook(before, row);
  }

  private remove(key: string): void {
    const before = this.rows.get(key);
    if (before === undefined) return;
    this.rows.delete(key);
    const tenant = tenantOf(this.scopeOf(before));
    const partition = this.tenants.get(tenant);
    partition?.delete(key);
    if (partition?.size === 0) this.tenants.delete(tenant);
    for (const hook of this.hooks) hook(before, undefined);
  }

  private partition(row: R): Map<string, R> {
    const tenant = tenantOf(this.scopeOf(row));
    let partition = this.tenants.get(tenant);
    if (!partition) {
      partition = new Map();
      this.tenants.set(tenant, partition);
    }
    return partition;
  }
}
