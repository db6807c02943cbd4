import { type Scope, sameScope, scopeDepth } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import type { FactRecord, FactStatus } from '../store/records.ts';

/**
 * Deterministic fact lookups shared by the facts API, extraction and review: paging through the
 * store, choosing the most specific scope's value, and reporting staleness on read.
 */

const DAY_MS = 86_400_000;
export const CURRENT: FactStatus[] = ['active', 'stale'];
export const EVERY_STATUS: FactStatus[] = ['active', 'stale', 'superseded', 'pending_review'];

/** True when `fact` has gone unconfirmed for longer than `staleAfterDays`. */
export function isOverdue(
  fact: Pick<FactRecord, 'lastConfirmedAt'>,
  now: number,
  staleAfterDays: number,
): boolean {
  return now - fact.lastConfirmedAt > staleAfterDays * DAY_MS;
}

/**
 * The fact as a reader should see it now: a current fact unconfirmed for too long reads as
 * `stale` even before consolidation has flagged it in the store.
 */
export function withStaleness(fact: FactRecord, now: number, staleAfterDays: number): FactRecord {
  if (fact.status === 'active' && isOverdue(fact, now, staleAfterDays)) return { ...fact, status: 'stale' };
  return fact;
}

/** Every page of a `facts.find`. */
export async function findAllFacts(
  store: Pick<StoreTransaction, 'facts'>,
  args: {
    scope: Scope;
    accessLevel?: number;
    entityType?: string;
    entityId?: string;
    key?: string;
    status?: FactStatus[];
  },
): Promise<FactRecord[]> {
  const out: FactRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.facts.find({ ...args, limit: 1000, ...(cursor ? { cursor } : {}) });
    out.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

export function factIdentity(fact: Pick<FactRecord, 'entityType' | 'entityId' | 'key'>): string {
  return `${fact.entityType}\u0000${fact.entityId}\u0000${fact.key}`;
}

/** Orders competing current facts: the most specific scope first, then the most recent. */
export function bySpecificity(a: FactRecord, b: FactRecord): number {
  return (
    scopeDepth(b.scope) - scopeDepth(a.scope) ||
    b.validFrom - a.validFrom ||
    b.createdAt - a.createdAt ||
    (a.id < b.id ? 1 : -1)
  );
}

/** One fact per (entity type, entity, key): the most specific scope wins. */
export function winners(facts: FactRecord[]): FactRecord[] {
  const best = new Map<string, FactRecord>();
  for (const fact of facts) {
    const id = factIdentity(fact);
    const held = best.get(id);
    if (!held || bySpecificity(fact, held) < 0) best.set(id, fact);
  }
  return [...best.values()].sort(
    (a, b) =>
      a.entityType.localeCompare(b.entityType) ||
      a.entityId.localeCompare(b.entityId) ||
      a.key.localeCompare(b.key),
  );
}

/** The current fact stored at exactly `scope` for the key, if any. */
export async function currentAt(
  store: Pick<StoreTransaction, 'facts'>,
  key: { scope: Scope; entityType: string; entityId: string; key: string },
): Promise<FactRecord | undefined> {
  const found = await findAllFacts(store, { ...key, status: CURRENT });
  const exact = found.filter((f) => sameScope(f.scope, key.scope));
  return exact.sort(bySpecificity)[0];
}

/** Loose equality of fact values: strings compare without case or spacing differences. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') {
    const fold = (s: string) => s.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
    return fold(a) === fold(b);
  }
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
