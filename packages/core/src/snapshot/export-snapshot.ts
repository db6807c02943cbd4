import { type Scope, sameScope, scopeKey, tenantOf, tenantRootScope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { LIMITS } from '../store/limits.ts';
import type { AuditEntry, Page } from '../store/records.ts';
import {
  type MemorySnapshot,
  type ScopeSnapshot,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
} from './snapshot-schema.ts';
import { sortKeys } from './sort-keys.ts';
import { encodeVector } from './vector-encoding.ts';

/** Progress of a long export or import: `done` of `total` scopes. */
export interface SnapshotProgress {
  phase: 'export' | 'import';
  done: number;
  total: number;
}

/** Options of `memory.export`. */
export interface ExportOptions {
  /** Export this scope's subtree (it and everything below it); without it, every tenant. */
  scope?: Scope;
  onProgress?: (progress: SnapshotProgress) => void;
}

const PAGE = LIMITS.maxLimit;

/** Every item of a paged listing. */
async function allOf<T>(read: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return items;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byTimeThenId =
  <T extends { id: string }>(time: (item: T) => number) =>
  (a: T, b: T) =>
    time(a) - time(b) || byText(a.id, b.id);

/** Drops `scope` from a record: in a snapshot it is the section's. */
function withoutScope<T extends { scope: Scope }>(record: T): Omit<T, 'scope'> {
  const { scope: _scope, ...rest } = record;
  return rest;
}

/** Every scope holding rows: the given scope's subtree, or the whole store. */
function scopesOf(store: Store, scope: Scope | undefined): Promise<Scope[]> {
  return allOf((cursor) =>
    store.scopes.list({ ...(scope ? { scope } : {}), limit: PAGE, ...(cursor ? { cursor } : {}) }),
  );
}

/** The roots whose subtrees hold `scopes`: the given scope, or each tenant's root scope. */
function rootsOf(scopes: Scope[], scope: Scope | undefined): Scope[] {
  if (scope) return [scope];
  return [...new Set(scopes.map(tenantOf))].map(tenantRootScope);
}

async function exportScope(store: Store, scope: Scope, audit: AuditEntry[]): Promise<ScopeSnapshot> {
  const here = <T extends { scope: Scope }>(items: T[]) =>
    items.filter((item) => sameScope(item.scope, scope));
  const section: ScopeSnapshot = {
    scope,
    episodes: [],
    facts: [],
    nodes: [],
    edges: [],
    state: [],
    ledger: [],
    review: [],
    audit: audit.map(withoutScope),
  };

  if (scope.threadId !== undefined) {
    const thread = await store.threads.get({ scope });
    if (thread) {
      const messages = [];
      let afterSeq = 0;
      for (;;) {
        const page = await store.threads.listMessages({ scope, afterSeq, limit: PAGE });
        messages.push(...page.map(withoutScope));
        if (page.length < PAGE) break;
        afterSeq = page[page.length - 1]!.seq;
      }
      section.thread = { ...withoutScope(thread), messages };
    }
  }

  const episodes = await allOf((cursor) =>
    store.episodes.list({
      scope,
      status: ['active', 'merged', 'archived'],
      order: 'asc',
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    }),
  );
  section.episodes = here(episodes)
    .sort(byTimeThenId((e) => e.occurredAt))
    .map(({ embedding, ...episode }) => ({
      ...withoutScope(episode),
      ...(embedding ? { embedding: encodeVector(embedding) } : {}),
    }));

  const facts = await allOf((cursor) =>
    store.facts.find({
      scope,
      status: ['active', 'pending_review', 'superseded', 'stale'],
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    }),
  );
  section.facts = here(facts)
    .sort(
      (a, b) =>
        byText(a.entityType, b.entityType) ||
        byText(a.entityId, b.entityId) ||
        byText(a.key, b.key) ||
        a.version - b.version ||
        byText(a.id, b.id),
    )
    .map(withoutScope);

  const nodes = await allOf((cursor) =>
    store.graph.listNodes({
      scope,
      status: ['active', 'superseded'],
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    }),
  );
  section.nodes = here(nodes)
    .sort(byTimeThenId((n) => n.createdAt))
    .map(withoutScope);
  const edges = await allOf((cursor) =>
    store.graph.listEdges({
      scope,
      status: ['active', 'superseded'],
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    }),
  );
  section.edges = here(edges)
    .sort(byTimeThenId((e) => e.createdAt))
    .map(withoutScope);

  const state = await allOf((cursor) =>
    store.state.list({ scope, limit: PAGE, ...(cursor ? { cursor } : {}) }),
  );
  section.state = here(state)
    .sort((a, b) => byText(a.key, b.key))
    .map(withoutScope);
  const ledger = await allOf((cursor) =>
    store.ledger.list({ scope, limit: PAGE, ...(cursor ? { cursor } : {}) }),
  );
  section.ledger = here(ledger)
    .sort((a, b) => byText(a.key, b.key))
    .map(withoutScope);
  const review = await allOf((cursor) =>
    store.review.list({
      scope,
      status: ['pending', 'approved', 'rejected'],
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    }),
  );
  // The dedupe key is derived from the proposal: an import sets it again.
  section.review = here(review)
    .sort(byTimeThenId((r) => r.createdAt))
    .map(({ dedupeKey: _derived, ...item }) => withoutScope(item));
  return section;
}

/**
 * A lossless snapshot of every scope in the subtree of `options.scope` (or of the whole store):
 * threads and messages, episodes with their embeddings, every fact version, graph nodes and edges,
 * state, ledger, review items and audit entries, each with its ids, times and provenance. Scopes
 * come in the store's `scopes.list` order, records in a fixed order and object keys sorted, so two
 * stores holding the same memory give the same JSON.
 */
export async function exportSnapshot(store: Store, options: ExportOptions = {}): Promise<MemorySnapshot> {
  const scopes = await scopesOf(store, options.scope);
  const roots = rootsOf(scopes, options.scope);
  // One read of each root's audit log (a subtree listing), shared out to the scopes.
  const auditByScope = new Map<string, AuditEntry[]>();
  for (const root of roots) {
    const entries = await allOf((cursor) =>
      store.audit.list({ scope: root, order: 'asc', limit: PAGE, ...(cursor ? { cursor } : {}) }),
    );
    for (const entry of entries) {
      const key = scopeKey(entry.scope);
      const list = auditByScope.get(key) ?? [];
      list.push(entry);
      auditByScope.set(key, list);
    }
  }
  const sections: ScopeSnapshot[] = [];
  for (const [i, scope] of scopes.entries()) {
    sections.push(await exportScope(store, scope, auditByScope.get(scopeKey(scope)) ?? []));
    options.onProgress?.({ phase: 'export', done: i + 1, total: scopes.length });
  }
  return sortKeys({
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    ...(options.scope ? { root: options.scope } : {}),
    scopes: sections,
  });
}
