import type { Database } from './database.ts';

/**
 * When the store vacuums and analyzes its growing tables itself: `auto` (the default) on PGlite,
 * which runs no background workers, and on a server whose `autovacuum` setting is off; `always`;
 * `never`.
 */
export type MaintenanceMode = 'auto' | 'always' | 'never';

/** The tables that grow with every observed message, maintained together. */
const GROWING_TABLES = [
  'episodes',
  'keyword_postings',
  'keyword_terms',
  'messages',
  'facts',
  'nodes',
  'edges',
  'audit_log',
] as const;

/** Episodes written since the last run that trigger the next: 500 plus a fifth of the table. */
export function maintenanceThreshold(rowsAtLastRun: number): number {
  return 500 + 0.2 * Math.max(0, rowsAtLastRun);
}

/**
 * Autovacuum's work where nothing else does it (PGlite, or a server run with `autovacuum = off`).
 *
 * - Statistics: PostgreSQL plans a query from each table's statistics; without ANALYZE a table
 *   keeps those of its empty self, and the planner expects one row where a user has thousands (a
 *   recall then read every episode of the tenant to find one user's, several times slower).
 * - The visibility map: an index-only scan (the bounded count before an exact vector search,
 *   BM25's postings, whose key INCLUDEs what a search filters on) reads a table row only where
 *   the map does not mark its page all-visible, and only VACUUM marks pages. Without it every
 *   index entry costs a row read: counting a user's 1,000 episodes took 3.2 ms instead of 0.8.
 *
 * This keeps autovacuum's rule for the tables that grow with use: it counts the episodes this store
 * writes and, past the threshold, runs `VACUUM (ANALYZE)` on them in the background, outside any
 * transaction (it takes no lock that blocks reads or writes; on an insert-mostly table it reads
 * only the pages written since the last run). Best effort, like autovacuum: a failed run is tried
 * again at the next write.
 */
export class TableMaintenance {
  readonly #db: Database;
  readonly #mode: MaintenanceMode;
  /** PGlite: no background workers, so no autovacuum whatever its setting says. */
  readonly #embedded: boolean;
  #written = 0;
  #threshold: number | undefined;
  #enabled: Promise<boolean> | undefined;
  #running: Promise<void> | undefined;

  constructor(db: Database, options: { mode: MaintenanceMode; embedded: boolean }) {
    this.#db = db;
    this.#mode = options.mode;
    this.#embedded = options.embedded;
  }

  /** Counts episodes written; past the threshold, starts a run unless one is going. */
  noteEpisodes(rows: number): void {
    if (this.#mode === 'never') return;
    this.#written += rows;
    if (this.#running || (this.#threshold !== undefined && this.#written < this.#threshold)) return;
    this.#running = this.#refresh()
      .catch(() => undefined)
      .finally(() => {
        this.#running = undefined;
      });
  }

  /** Resolves when no run is going (the store waits for it before closing). */
  async settled(): Promise<void> {
    await this.#running;
  }

  async #refresh(): Promise<void> {
    if (!(await this.#isEnabled())) {
      this.#threshold = Number.POSITIVE_INFINITY;
      return;
    }
    const { schema } = await this.#db.names();
    // The first time, the threshold comes from the table's size at its last ANALYZE (whoever ran it).
    this.#threshold ??= maintenanceThreshold(await this.#analyzedRows(schema));
    if (this.#written < this.#threshold) return;
    const written = this.#written;
    await this.#db.client.query(
      `VACUUM (ANALYZE) ${GROWING_TABLES.map((table) => `${schema}.${table}`).join(', ')}`,
    );
    this.#written -= written;
    this.#threshold = maintenanceThreshold(await this.#analyzedRows(schema));
  }

  async #analyzedRows(schema: string): Promise<number> {
    const result = await this.#db.client.query<{ rows: unknown }>(
      `SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = '${schema}.episodes'::regclass`,
    );
    return Math.max(0, Number(result.rows[0]?.rows ?? 0));
  }

  #isEnabled(): Promise<boolean> {
    if (this.#mode === 'always' || this.#embedded) return Promise.resolve(true);
    this.#enabled ??= this.#db.client
      .query<{ on: unknown }>(`SELECT current_setting('autovacuum') = 'on' AS on`)
      .then((result) => result.rows[0]?.on !== true)
      .catch((error: unknown) => {
        this.#enabled = undefined;
        throw error;
      });
    return this.#enabled;
  }
}
