import { parseScope, type Scope, sameScope } from '../scope/scope.ts';
import type { Store } from './contract.ts';
import type { Page } from './records.ts';

/** How many rows one scope holds in each layer (rows stored at exactly that scope). */
export interface ScopeCounts {
  /** Working memory: messages of the scope's thread. */
  messages: number;
  /** Active episodes (merged and archived ones are counted in `inactiveEpisodes`). */
  episodes: number;
  inactiveEpisodes: number;
  /** Current facts (active or stale). */
  facts: number;
  /** Every stored fact version, current and superseded. */
  factVersions: number;
  /** Graph nodes and edges, active or superseded. */
  nodes: number;
  edges: number;
  /** Review items still pending. */
  pendingReview: number;
  /** Job state entries and idempotency ledger keys. */
  state: number;
  ledger: number;
  audit: number;
}

export interface ScopeInventoryEntry {
  scope: Scope;
  counts: ScopeCounts;
}

export interface ScopeInventory {
  /** Every scope in the subtree holding at least one row, deepest first (as `store.scopes.list`). */
  scopes: ScopeInventoryEntry[];
  /** The sums over `scopes`. */
  totals: ScopeCounts;
}

const PAGE = 1000;

async function countExact<T extends { scope: Scope }>(
  scope: Scope,
  page: (cursor: string | undefined) => Promise<Page<T>>,
): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  do {
    const result = await page(cursor);
    count += result.items.filter((item) => sameScope(item.scope, scope)).length;
    cursor = result.nextCursor;
  } while (cursor !== undefined);
  return count;
}

async function countMessages(store: Store, scope: Scope): Promise<number> {
  if (scope.threadId === undefined) return 0;
  let count = 0;
  let afterSeq: number | undefined;
  for (;;) {
    const page = await store.threads.listMessages({
      scope,
      limit: PAGE,
      ...(afterSeq === undefined ? {} : { afterSeq }),
    });
    count += page.length;
    if (page.length < PAGE) return count;
    afterSeq = page[page.length - 1]?.seq;
  }
}

/** Counts the rows stored at exactly `scope`, layer by layer (reads see ancestors; they are left out). */
export async function countScope(store: Store, scope: Scope): Promise<ScopeCounts> {
  const episodes = (status: Array<'active' | 'merged' | 'archived'>) =>
    countExact(scope, (cursor) => store.episodes.list({ scope, status, limit: PAGE, cursor }));
  return {
    messages: await countMessages(store, scope),
    episodes: await episodes(['active']),
    inactiveEpisodes: await episodes(['merged', 'archived']),
    facts: await countExact(scope, (cursor) => store.facts.find({ scope, limit: PAGE, cursor })),
    factVersions: await countExact(scope, (cursor) =>
      store.facts.find({
        scope,
        status: ['active', 'stale', 'superseded', 'pending_review'],
        limit: PAGE,
        cursor,
      }),
    ),
    nodes: await countExact(scope, (cursor) =>
      store.graph.listNodes({ scope, status: ['active', 'superseded'], limit: PAGE, cursor }),
    ),
    edges: await countExact(scope, (cursor) =>
      store.graph.listEdges({ scope, status: ['active', 'superseded'], limit: PAGE, cursor }),
    ),
    pendingReview: await countExact(scope, (cursor) => store.review.list({ scope, limit: PAGE, cursor })),
    state: await countExact(scope, (cursor) => store.state.list({ scope, limit: PAGE, cursor })),
    ledger: await countExact(scope, (cursor) => store.ledger.list({ scope, limit: PAGE, cursor })),
    audit: await countExact(scope, (cursor) => store.audit.list({ scope, limit: PAGE, cursor })),
  };
}

function emptyCounts(): ScopeCounts {
  return {
    messages: 0,
    episodes: 0,
    inactiveEpisodes: 0,
    facts: 0,
    factVersions: 0,
    nodes: 0,
    edges: 0,
    pendingReview: 0,
    state: 0,
    ledger: 0,
    audit: 0,
  };
}

/**
 * What a subtree holds: every scope at or below `root` (without one, in the whole store) that stores
 * anything, with its rows counted per layer, and the totals. Reads every row once, so it is for reports and tools
 * (`strata stats`), not for the request path. `onScope` is called as each scope is counted, with
 * its position and the number of scopes.
 */
export async function scopeInventory(
  store: Store,
  root: Scope | undefined,
  options: { onScope?: (scope: Scope, index: number, total: number) => void } = {},
): Promise<ScopeInventory> {
  const checked = root === undefined ? undefined : parseScope(root);
  const scopes: Scope[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.scopes.list({ ...(checked ? { scope: checked } : {}), limit: PAGE, cursor });
    scopes.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const entries: ScopeInventoryEntry[] = [];
  const totals = emptyCounts();
  for (const [index, scope] of scopes.entries()) {
    options.onScope?.(scope, index, scopes.length);
    const counts = await countScope(store, scope);
    for (const key of Object.keys(totals) as Array<keyof ScopeCounts>) totals[key] += counts[key];
    entries.push({ scope, counts });
  }
  return { scopes: entries, totals };
}
