import { randomBytes } from 'node:crypto';
import { type ErrorCode, type Scope, type Store, StrataError } from '@strata-memory/core/store';
import { afterEach, beforeEach, expect } from 'vitest';
import type { StoreConformanceOptions } from './options.ts';

/** Registers a fresh store per test and returns a getter for it. */
export function useStore(options: StoreConformanceOptions): () => Store {
  let current: Store | undefined;
  beforeEach(async () => {
    current = await options.create();
  });
  afterEach(async () => {
    const store = current;
    current = undefined;
    if (store) await (options.destroy ? options.destroy(store) : store.close());
  });
  return () => {
    if (!current) throw new Error('the conformance store is only available inside a test');
    return current;
  };
}

/** A short random id, unique across tests and runs (drivers may share a database between tests). */
export function uniqueId(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

/**
 * The scopes one test works with: an organisation with two users (siblings), threads under them,
 * and a second, unrelated tenant.
 */
export interface Tenant {
  org: Scope;
  alice: Scope;
  bob: Scope;
  aliceThread: Scope;
  aliceOtherThread: Scope;
  bobThread: Scope;
  /** Another tenant whose user id is alice's: tenant roots must still keep them apart. */
  otherOrgAlice: Scope;
  /** A tenant rooted at a user (no org) with alice's user id. */
  bareAlice: Scope;
  /**
   * This test's id for an item called `name` (an episode, fact, node, edge, review item or audit
   * entry): `name` behind a prefix unique to the test. Some drivers keep item ids unique store-wide,
   * and `create` may hand every test the same database, so no two tests may use the same id.
   * Ids of one test sort in the order of their names.
   */
  id: (name: string) => string;
  /** `id` of each name, in order. */
  ids: (...names: string[]) => string[];
}

export function newTenant(): Tenant {
  const orgId = uniqueId('org');
  const otherOrgId = uniqueId('org');
  const aliceId = uniqueId('alice');
  const bobId = uniqueId('bob');
  const prefix = `${uniqueId('i')}-`;
  const id = (name: string) => `${prefix}${name}`;
  return {
    org: { orgId },
    alice: { orgId, userId: aliceId },
    bob: { orgId, userId: bobId },
    aliceThread: { orgId, userId: aliceId, threadId: 't1' },
    aliceOtherThread: { orgId, userId: aliceId, threadId: 't2' },
    bobThread: { orgId, userId: bobId, threadId: 't1' },
    otherOrgAlice: { orgId: otherOrgId, userId: aliceId },
    bareAlice: { userId: aliceId },
    id,
    ids: (...names) => names.map(id),
  };
}

export const provenance = { source: 'api' as const, principalId: 'tester', at: 1_700_000_000_000 };

/** A base time for tests that set times explicitly (2024-01-01). */
export const T0 = 1_704_067_200_000;
export const MINUTE = 60_000;
export const DAY = 86_400_000;

/** Awaits `promise`, expecting a StrataError with `code`; returns it. */
export async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<StrataError> {
  let caught: unknown;
  let resolved = false;
  try {
    await promise;
    resolved = true;
  } catch (error) {
    caught = error;
  }
  expect(resolved, `expected the call to fail with ${code}, but it succeeded`).toBe(false);
  expect(StrataError.isInstance(caught), `expected a StrataError, got ${String(caught)}`).toBe(true);
  expect((caught as StrataError).code).toBe(code);
  return caught as StrataError;
}

/** Sorted copy, for comparing sets of ids. */
export function sorted<T>(values: Iterable<T>): T[] {
  return [...values].sort();
}

/** Reads every page of a paginated listing. Fails if it does not terminate. */
export async function allPages<T>(
  read: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 1; pages <= 1_000; pages++) {
    const page = await read(cursor);
    items.push(...page.items);
    if (page.nextCursor === undefined) return { items, pages };
    cursor = page.nextCursor;
  }
  throw new Error('pagination did not terminate after 1000 pages');
}

/** A unit vector along `axis` with a small tilt toward `tiltAxis`. */
export function unitVector(
  dimensions: number,
  axis: number,
  tilt = 0,
  tiltAxis = (axis + 1) % dimensions,
): number[] {
  const v = new Array<number>(dimensions).fill(0);
  v[axis] = 1;
  v[tiltAxis] = (v[tiltAxis] ?? 0) + tilt;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

/** Counts rows a scope can see across sub-stores, to prove a failed call stored nothing. */
export async function visibleCounts(store: Store, scope: Scope) {
  const [episodes, facts, nodes, edges, review, audit, state, ledger] = await Promise.all([
    store.episodes.count({ scope, status: ['active', 'merged', 'archived'] }),
    store.facts.find({ scope, status: ['active', 'pending_review', 'superseded', 'stale'], limit: 1000 }),
    store.graph.listNodes({ scope, status: ['active', 'superseded'], limit: 1000 }),
    store.graph.listEdges({ scope, status: ['active', 'superseded'], limit: 1000 }),
    store.review.list({ scope, status: ['pending', 'approved', 'rejected'], limit: 1000 }),
    store.audit.list({ scope, limit: 1000 }),
    store.state.list({ scope, limit: 1000 }),
    store.ledger.list({ scope, limit: 1000 }),
  ]);
  return {
    episodes,
    facts: facts.items.length,
    nodes: nodes.items.length,
    edges: edges.items.length,
    review: review.items.length,
    audit: audit.items.length,
    state: state.items.length,
    ledger: ledger.items.length,
  };
}
