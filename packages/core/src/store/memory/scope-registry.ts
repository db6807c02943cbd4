import { type Scope, tenantOf } from '../../scope/scope.ts';
import { exactScopeKey } from './row-keys.ts';
import type { Table } from './table.ts';

interface ScopeEntry {
  scope: Scope;
  /** Rows stored at exactly this scope, over every table the registry watches. */
  rows: number;
}

/**
 * Which exact scopes hold rows, per tenant, with a row count each: kept in step with every table
 * through its change hooks (undone changes included), so `scopes.list` reads a tenant's scopes
 * without scanning its rows.
 */
export class ScopeRegistry {
  private readonly tenants = new Map<string, Map<string, ScopeEntry>>();

  /** Counts the rows of `table` from now on. */
  watch<R>(table: Table<R>, scopeOf: (row: R) => Scope): void {
    table.onChange((before, after) => {
      const from = before === undefined ? undefined : scopeOf(before);
      const to = after === undefined ? undefined : scopeOf(after);
      // Updates keep their scope (usually the very same object): nothing to count.
      if (from === to || (from && to && exactScopeKey(from) === exactScopeKey(to))) return;
      if (from) this.add(from, -1);
      if (to) this.add(to, 1);
    });
  }

  /** The scopes of `tenant` holding at least one row, in no particular order. */
  scopesOf(tenant: string): Iterable<Scope> {
    const entries = this.tenants.get(tenant);
    if (!entries) return [];
    return [...entries.values()].map((entry) => entry.scope);
  }

  /** The scopes of every tenant holding at least one row, in no particular order. */
  *allScopes(): Iterable<Scope> {
    for (const entries of this.tenants.values()) {
      for (const entry of entries.values()) yield entry.scope;
    }
  }

  private add(scope: Scope, delta: number): void {
    const tenant = tenantOf(scope);
    const key = exactScopeKey(scope);
    let entries = this.tenants.get(tenant);
    if (!entries) {
      entries = new Map();
      this.tenants.set(tenant, entries);
    }
    const entry = entries.get(key);
    if (!entry) {
      if (delta > 0) entries.set(key, { scope, rows: delta });
      return;
    }
    entry.rows += delta;
    if (entry.rows <= 0) {
      entries.delete(key);
      if (entries.size === 0) this.tenants.delete(tenant);
    }
  }
}
