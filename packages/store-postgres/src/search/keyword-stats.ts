import { randomInt } from 'node:crypto';
import type { Database } from '../driver/database.ts';
import { Params } from '../sql/params.ts';

/** Slots per tenant in `keyword_stats`. */
export const KEYWORD_STAT_SLOTS = 8;

export interface StatsChange {
  tenant: string;
  documents: number;
  terms: number;
}

/** Sums episode and term counts per tenant (negative for deletions). */
export function statsChanges(
  rows: ReadonlyArray<{ tenant: string; docLength: number }>,
  sign: 1 | -1,
): StatsChange[] {
  const byTenant = new Map<string, StatsChange>();
  for (const row of rows) {
    let change = byTenant.get(row.tenant);
    if (!change) {
      change = { tenant: row.tenant, documents: 0, terms: 0 };
      byTenant.set(row.tenant, change);
    }
    change.documents += sign;
    change.terms += sign * row.docLength;
  }
  // One order for every writer, so two transactions never wait on each other's rows in a cycle.
  return [...byTenant.values()].sort((a, b) => (a.tenant < b.tenant ? -1 : a.tenant > b.tenant ? 1 : 0));
}

/**
 * Adds episode and term counts to BM25's per-tenant statistics, in the caller's transaction (so
 * they change exactly when the episodes do).
 */
export async function applyStatsChanges(db: Database, schema: string, changes: StatsChange[]): Promise<void> {
  if (changes.length === 0) return;
  const p = new Params();
  const slot = randomInt(KEYWORD_STAT_SLOTS);
  const rows = changes.map((c) => `(${p.add(c.tenant)}, ${slot}, ${p.add(c.documents)}, ${p.add(c.terms)})`);
  await db.query(
    `INSERT INTO ${schema}.keyword_stats AS k (tenant_id, slot, documents, terms) VALUES ${rows.join(', ')}
     ON CONFLICT (tenant_id, slot) DO UPDATE
        SET documents = k.documents + EXCLUDED.documents, terms = k.terms + EXCLUDED.terms`,
    p.values,
  );
}
