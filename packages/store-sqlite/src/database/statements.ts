import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SqlValue } from '../sql/scope-sql.ts';

const MAX_CACHED = 512;

/**
 * Prepared statements by SQL text, least recently used evicted. Queries with IN lists differ in
 * text by list length, so the cache holds a few variants of each.
 */
export class Statements {
  private readonly cache = new Map<string, StatementSync>();

  readonly db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  prepare(sql: string): StatementSync {
    const cached = this.cache.get(sql);
    if (cached) {
      this.cache.delete(sql);
      this.cache.set(sql, cached);
      return cached;
    }
    const statement = this.db.prepare(sql);
    this.cache.set(sql, statement);
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    return statement;
  }

  all<R>(sql: string, params: readonly SqlValue[] = []): R[] {
    return this.prepare(sql).all(...params) as R[];
  }

  get<R>(sql: string, params: readonly SqlValue[] = []): R | undefined {
    return this.prepare(sql).get(...params) as R | undefined;
  }

  run(sql: string, params: readonly SqlValue[] = []): { changes: number; lastInsertRowid: number } {
    const result = this.prepare(sql).run(...params);
    return { changes: Number(result.changes), lastInsertRowid: Number(result.lastInsertRowid) };
  }
}
