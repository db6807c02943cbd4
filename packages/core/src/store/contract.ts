import type { z } from 'zod/v4';
import type {
  AuditEntry,
  EdgeRecord,
  EpisodeRecord,
  FactRecord,
  LedgerEntry,
  MessageRecord,
  NodeRecord,
  Page,
  ReviewItem,
  StateEntry,
  ThreadRecord,
} from './records.ts';
import type {
  auditArgs,
  episodeArgs,
  factArgs,
  graphArgs,
  ledgerArgs,
  reviewArgs,
  stateArgs,
  storeArgs,
  threadArgs,
} from './schemas.ts';

/**
 * The Store port, version 1.
 *
 * A driver implements `StoreDriver`: every method receives arguments already validated and
 * completed by `defineStore` (the `z.output` of the schemas in `schemas.ts`). Users and the engine
 * call the `Store` that `defineStore(driver)` returns (the `z.input` of the same schemas).
 *
 * Semantics every driver must match (the conformance suite checks each):
 * - Reads take a `scope` and see items stored at that scope or an ancestor (see `scope.ts`);
 *   the filter is part of the query, not applied to results afterwards.
 * - Reads that take `accessLevel` return only items whose `accessLevel` is at or below it;
 *   `undefined` means unrestricted (engine-internal calls).
 * - Calls that change an item by id take the caller's `scope`; an id not visible from it is
 *   reported as `not_found` and nothing changes.
 * - Batches are atomic: a call that fails stores nothing.
 * - Drivers return candidates with raw scores; fusion, decay and budgeting live in the engine.
 */
export const STORE_SPECIFICATION_VERSION = 'v1';

type Args<T extends z.ZodType> = z.output<T>;

export interface ScoredEpisode {
  episode: EpisodeRecord;
  /**
   * `searchKeyword`: BM25-like relevance, higher is better, > 0 for any returned row.
   * `searchVector`: cosine similarity in [-1, 1].
   */
  score: number;
}

export interface TraversalStep {
  node: NodeRecord;
  /** Hops from the nearest start node (>= 1). */
  depth: number;
  /** One shortest path from a start node: `nodeIds[0]` is the start, the last is `node.id`. */
  path: { nodeIds: string[]; edgeIds: string[] };
}

export interface TraversalResult {
  start: NodeRecord[];
  /** Every node reached within `maxHops` over active edges, each once, by depth then id. */
  reached: TraversalStep[];
  /** Every edge on a returned path. */
  edges: EdgeRecord[];
}

export interface ForgetCounts {
  threads: number;
  messages: number;
  episodes: number;
  facts: number;
  nodes: number;
  edges: number;
  state: number;
  ledger: number;
  review: number;
  audit: number;
}

export interface ThreadDriver {
  /** Creates the thread if missing, else updates title/metadata (merged) and `updatedAt`. */
  upsert(args: Args<typeof threadArgs.upsert>): Promise<ThreadRecord>;
  /** The thread at exactly this scope, or null. */
  get(args: Args<typeof threadArgs.get>): Promise<ThreadRecord | null>;
  /** Every thread with this id, in any scope (adapters use it to check ownership). */
  lookup(args: Args<typeof threadArgs.lookup>): Promise<ThreadRecord[]>;
  /** Threads in the subtree of `scope`, most recently updated first. */
  list(args: Args<typeof threadArgs.list>): Promise<Page<ThreadRecord>>;
  /** `not_found` if the thread does not exist. Metadata is merged. */
  update(args: Args<typeof threadArgs.update>): Promise<ThreadRecord>;
  /** Deletes the thread and its messages. */
  delete(args: Args<typeof threadArgs.delete>): Promise<{ deleted: boolean }>;
  /**
   * Appends in order, assigning `seq`; creates the thread if missing. A message whose id already
   * exists in the thread is not appended again; its stored record is returned in its place.
   */
  appendMessages(args: Args<typeof threadArgs.appendMessages>): Promise<MessageRecord[]>;
  /** Messages by `seq`, in `order`; with `order: 'desc'` and `limit` n, the last n. */
  listMessages(args: Args<typeof threadArgs.listMessages>): Promise<MessageRecord[]>;
  getMessages(args: Args<typeof threadArgs.getMessages>): Promise<MessageRecord[]>;
  deleteMessages(args: Args<typeof threadArgs.deleteMessages>): Promise<{ deleted: number }>;
}

export interface EpisodeDriver {
  /** Inserts; an id that already exists fails the whole batch with `conflict`. */
  put(args: Args<typeof episodeArgs.put>): Promise<EpisodeRecord[]>;
  /** Visible episodes among `ids`, in the order of `ids`. */
  get(args: Args<typeof episodeArgs.get>): Promise<EpisodeRecord[]>;
  /** Visible episodes by `occurredAt` (then id) in `order`. */
  list(args: Args<typeof episodeArgs.list>): Promise<Page<EpisodeRecord>>;
  count(args: Args<typeof episodeArgs.count>): Promise<number>;
  /**
   * Keyword candidates: `query` is plain text (no operator syntax; quotes, `*`, `OR`, `-` are
   * literal). Returns visible episodes containing any query term, best first.
   */
  searchKeyword(args: Args<typeof episodeArgs.searchKeyword>): Promise<ScoredEpisode[]>;
  /**
   * Vector candidates by cosine similarity, best first. Only episodes embedded with the same
   * number of dimensions as `vector` are candidates.
   */
  searchVector(args: Args<typeof episodeArgs.searchVector>): Promise<ScoredEpisode[]>;
  /** Active episodes stored at exactly `scope` whose `contentHash` is listed. */
  findByHash(args: Args<typeof episodeArgs.findByHash>): Promise<EpisodeRecord[]>;
  update(args: Args<typeof episodeArgs.update>): Promise<EpisodeRecord>;
  /** Adds 1 to `accessCount` and sets `lastAccessedAt` on each visible id. */
  recordAccess(args: Args<typeof episodeArgs.recordAccess>): Promise<void>;
  delete(args: Args<typeof episodeArgs.delete>): Promise<{ deleted: number }>;
}

export interface FactDriver {
  /**
   * Inserts version 1 of (scope, entityType, entityId, key). Fails with `conflict` when a current
   * (active or stale) fact already exists for that key at exactly that scope: use `supersede`.
   */
  insert(args: Args<typeof factArgs.insert>): Promise<FactRecord>;
  /**
   * Atomically ends the current version `id` (status `superseded`, `validTo` = at, `supersededBy`)
   * and inserts the next version (same scope and key, version + 1, `supersedes` = id, status
   * active). Fails with `conflict` if `id` is no longer current or its version differs from
   * `expectedVersion`; nothing changes then.
   */
  supersede(args: Args<typeof factArgs.supersede>): Promise<{ previous: FactRecord; current: FactRecord }>;
  get(args: Args<typeof factArgs.get>): Promise<FactRecord[]>;
  /** Visible facts matching the filters, most recently created first. */
  find(args: Args<typeof factArgs.find>): Promise<Page<FactRecord>>;
  /** Every visible version of the key, by scope depth (ancestors first) then version. */
  history(args: Args<typeof factArgs.history>): Promise<FactRecord[]>;
  /** Status (active/stale), confirmation time, confidence, metadata of a current fact; `conflict` on a superseded one. */
  update(args: Args<typeof factArgs.update>): Promise<FactRecord>;
  delete(args: Args<typeof factArgs.delete>): Promise<{ deleted: number }>;
}

export interface GraphDriver {
  /**
   * One node per (exact scope, type, normalised name): an existing one gets the new aliases added,
   * properties merged, status active, and is returned with its original id.
   */
  upsertNode(args: Args<typeof graphArgs.upsertNode>): Promise<NodeRecord>;
  getNodes(args: Args<typeof graphArgs.getNodes>): Promise<NodeRecord[]>;
  /** Visible nodes whose normalised name or an alias equals a normalised `names` entry. */
  findNodes(args: Args<typeof graphArgs.findNodes>): Promise<NodeRecord[]>;
  listNodes(args: Args<typeof graphArgs.listNodes>): Promise<Page<NodeRecord>>;
  /** `aliases` replaces the list; `properties` merges. */
  updateNode(args: Args<typeof graphArgs.updateNode>): Promise<NodeRecord>;
  /** Deletes nodes and every edge touching them. */
  deleteNodes(args: Args<typeof graphArgs.deleteNodes>): Promise<{ deleted: number }>;
  /**
   * Both ends must be visible from `edge.scope` (else `not_found`). An active edge with the same
   * scope, ends and relation is returned instead of adding a duplicate.
   */
  addEdge(args: Args<typeof graphArgs.addEdge>): Promise<EdgeRecord>;
  listEdges(args: Args<typeof graphArgs.listEdges>): Promise<Page<EdgeRecord>>;
  updateEdge(args: Args<typeof graphArgs.updateEdge>): Promise<EdgeRecord>;
  deleteEdges(args: Args<typeof graphArgs.deleteEdges>): Promise<{ deleted: number }>;
  /**
   * Breadth-first over active, visible edges (and active nodes) from `start`, following
   * `direction`, up to `maxHops`; cycles are not followed twice.
   */
  traverse(args: Args<typeof graphArgs.traverse>): Promise<TraversalResult>;
}

export interface StateDriver {
  get(args: Args<typeof stateArgs.get>): Promise<StateEntry | null>;
  set(args: Args<typeof stateArgs.set>): Promise<StateEntry>;
  delete(args: Args<typeof stateArgs.delete>): Promise<{ deleted: boolean }>;
  /** Entries at exactly `scope`, by key. */
  list(args: Args<typeof stateArgs.list>): Promise<Page<StateEntry>>;
}

export interface LedgerDriver {
  /**
   * Atomically takes the key: `claimed: true` when no entry exists or the existing claim's lease
   * has expired; otherwise `claimed: false` with the existing entry (a `done` key is never
   * claimed again). Two concurrent claims never both succeed.
   */
  claim(args: Args<typeof ledgerArgs.claim>): Promise<{ claimed: boolean; entry: LedgerEntry }>;
  /** Marks a key the owner holds as done (idempotent for the same owner); `conflict` otherwise. */
  complete(args: Args<typeof ledgerArgs.complete>): Promise<LedgerEntry>;
  /** Drops an unfinished claim the owner holds, so the key can be claimed again. */
  release(args: Args<typeof ledgerArgs.release>): Promise<{ released: boolean }>;
  get(args: Args<typeof ledgerArgs.get>): Promise<LedgerEntry | null>;
  list(args: Args<typeof ledgerArgs.list>): Promise<Page<LedgerEntry>>;
}

export interface ReviewDriver {
  add(args: Args<typeof reviewArgs.add>): Promise<ReviewItem>;
  get(args: Args<typeof reviewArgs.get>): Promise<ReviewItem[]>;
  /** Visible items, oldest first. */
  list(args: Args<typeof reviewArgs.list>): Promise<Page<ReviewItem>>;
  /** `conflict` unless the item is pending. */
  decide(args: Args<typeof reviewArgs.decide>): Promise<ReviewItem>;
}

export interface AuditDriver {
  append(args: Args<typeof auditArgs.append>): Promise<AuditEntry[]>;
  /** Entries in the subtree of `scope`, by time then insertion order. */
  list(args: Args<typeof auditArgs.list>): Promise<Page<AuditEntry>>;
}

export interface StoreCapabilities {
  /** `episodes.searchKeyword` works. */
  keywordSearch: boolean;
  /** `episodes.searchVector` works. */
  vectorSearch: boolean;
  /** Keyword ranking function, for documentation (`bm25`, `ts_rank_cd`). */
  keywordRanking: string;
  /** `transaction` is atomic and rolls back when its function throws. */
  transactions: boolean;
  /** Several processes may use the same data at once. */
  multiProcess: boolean;
  /** Data survives the process. */
  persistent: boolean;
}

interface SubStores {
  readonly threads: ThreadDriver;
  readonly episodes: EpisodeDriver;
  readonly facts: FactDriver;
  readonly graph: GraphDriver;
  readonly state: StateDriver;
  readonly ledger: LedgerDriver;
  readonly review: ReviewDriver;
  readonly audit: AuditDriver;
}

/** What a driver implements. Wrap it with `defineStore` to get a `Store`. */
export interface StoreDriver extends SubStores {
  readonly name: string;
  readonly capabilities: StoreCapabilities;
  /**
   * Runs `fn` atomically: every call made through `tx` commits together, or none does if `fn`
   * throws. Calls on the outer store wait until the transaction ends. Nested calls join it.
   */
  transaction<T>(fn: (tx: StoreDriverTransaction) => Promise<T>): Promise<T>;
  /** Erases every row in the subtree of `scope` from every sub-store, atomically. */
  forget(args: Args<typeof storeArgs.forget>): Promise<ForgetCounts>;
  close(): Promise<void>;
  /**
   * Turns a native driver error into a StrataError (`store_unavailable` for connection loss or
   * lock timeouts, `conflict` for constraint races). Return undefined to keep the default mapping.
   */
  mapError?(error: unknown): import('../errors/strata-error.ts').StrataError | undefined;
}

export type StoreDriverTransaction = SubStores;

// ---------------------------------------------------------------- public view

/** A driver method as callers see it: arguments before validation and defaults. */
type Public<D, S> = {
  [K in keyof D & keyof S]: D[K] extends (args: never) => infer R
    ? S[K] extends z.ZodType
      ? (args: z.input<S[K]>) => R
      : never
    : never;
};

export type ThreadStore = Public<ThreadDriver, typeof threadArgs>;
export type EpisodeStore = Public<EpisodeDriver, typeof episodeArgs>;
export type FactStore = Public<FactDriver, typeof factArgs>;
export type GraphStore = Public<GraphDriver, typeof graphArgs>;
export type StateStore = Public<StateDriver, typeof stateArgs>;
export type LedgerStore = Public<LedgerDriver, typeof ledgerArgs>;
export type ReviewStore = Public<ReviewDriver, typeof reviewArgs>;
export type AuditStore = Public<AuditDriver, typeof auditArgs>;

export interface StoreTransaction {
  readonly threads: ThreadStore;
  readonly episodes: EpisodeStore;
  readonly facts: FactStore;
  readonly graph: GraphStore;
  readonly state: StateStore;
  readonly ledger: LedgerStore;
  readonly review: ReviewStore;
  readonly audit: AuditStore;
}

/** The validated store the engine and users call. Build one with `defineStore(driver)`. */
export interface Store extends StoreTransaction {
  readonly specificationVersion: typeof STORE_SPECIFICATION_VERSION;
  readonly name: string;
  readonly capabilities: StoreCapabilities;
  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  forget(args: z.input<typeof storeArgs.forget>): Promise<ForgetCounts>;
  close(): Promise<void>;
}
