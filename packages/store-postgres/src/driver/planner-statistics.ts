import type { Database } from './database.ts';

/**
 * When the store refreshes the planner's statistics itself: `auto` (the default) on PGlite, which
 * runs no background workers, and on a server whose `autovacuum` setting is off; `always`; `never`.
 */
export type AnalyzeMode = 'auto' | 'always' | 'never';

/** The tables that grow with every observed message, analyzed together. */
const GROWING_TABLES = [
  'episodes',
  'episode_vectors',
  'keyword_postings',
  'keyword_terms',
  'messages',
  'facts',
  'nodes',
  'edges',
  'audit_log',
] as const;

/** Episodes written since the last ANALYZE that trigger the next: 500 plus a fifth of the table. */
export function analyzeThreshold(rowsAtLastAnalyze: number): number {
  return 500 + 0.2 * Math.max(0, rowsAtLastAnalyze);
}

/**
 * Planner statistics where nothing else keeps them. PostgreSQL plans a query from each table's
 * statistics, which autovacuum refreshes as the table grows. Without it (PGlite, or a server run
 * with `autovacuum = off`) a table keeps the statistics of its empty self, and the planner then
 * expects one row where a user has thousands: a recall read every episode of the tenant to find
 * one user's, several times slower than with statistics. This keeps autovacuum's rule for the
 * tables that grow with use: it counts the episodes this store writes and, past the threshold,
 * runs ANALYZE on them in the background, outside any transaction (it takes no lock that blocks
 * reads or writes). Best effort, like autovacuum: a failed ANALYZE is tried again at the next write.
 */
export class PlannerStatistics {
  readonly #db: Database;
  readonly #mode: AnalyzeMode;
  /** PGlite: no background workers, so no autovacuum whatever its setting says. */
  readonly #embedded: boolean;
  #written = 0;
  #threshold: number | undefined;
  #enabled: Promise<boolean> | undefined;
  #running: Promise<void> | undefined;

  constructor(db: Database, options: { mode: AnalyzeMode; embedded: boolean }) {
    this.#db = db;
    this.#mode = options.mode;
    this.#embedded = options.embedded;
  }

  /** Counts episodes written; past the threshold, starts an ANALYZE unless one is running. */
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

  /** Resolves when no ANALYZE is running (the store waits for it before closing). */
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
    this.#threshold ??= analyzeThreshold(await this.#analyzedRows(schema));
    if (this.#written < this.#threshold) return;
    const written = this.#written;
    await this.#db.client.query(`ANALYZE ${GROWING_TABLES.map((table) => `${schema}.${table}`).join(', ')}`);
    this.#written -= written;
    this.#threshold = analyzeThreshold(await this.#analyzedRows(schema));
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
