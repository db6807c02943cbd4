import type { z } from 'zod/v4';
import type { Scope } from '../scope/scope.ts';
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
  scopeArgs,
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
 * - Batch deletes (`delete`, `deleteMessages`, `deleteNodes`, `deleteEdges`) delete the listed ids
 *   visible from `scope`, skip the rest without error, and return how many they deleted.
 * - Inserting an id that already exists (episodes, facts, nodes, edges, review items, audit
 *   entries) fails the whole call with `conflict`.
 * - `since` and `until` bound a time inclusively (`since <= t <= until`).
 * - `cursor` is opaque: pass back a `nextCursor` unchanged; anything else fails with `invalid_input`.
 *   Listings page by their documented order, which always ends in a unique tie-breaker.
 * - Patches merge `metadata` and `properties` (top-level keys) and leave unset fields alone.
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

export type { ValueCondition, ValueOperator } from './value-filter.ts';

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

/** How much space a store's data takes, from `store.size()` (drivers that can tell). */
export interface StoreSize {
  /** The total the store takes where it keeps its data. */
  bytes: number;
  /** What the total is made of, e.g. the SQLite file and its write-ahead log, or a schema's tables. */
  parts: Array<{ name: string; bytes: number }>;
}

/** What `store.migrate()` did: the schema version now in place and the migrations it applied. */
export interface StoreMigration {
  /** The schema version the data is at now. */
  version: number;
  /** The newest version this driver knows. */
  latest: number;
  /** Versions applied by this store (when it opened or by this call); empty when it was up to date. */
  applied: number[];
}

export interface ThreadDriver {
  /** Creates the thread if missing, else updates title/metadata (merged) and `updatedAt`. */
  upsert(args: Args<typeof threadArgs.upsert>): Promise<ThreadRecord>;
  /** The thread at exactly this scope, or null. */
  get(args: Args<typeof threadArgs.get>): Promise<ThreadRecord | null>;
  /** Every thread with this id, in any scope (adapters use it to check ownership). */
  lookup(args: Args<typeof threadArgs.lookup>): Promise<ThreadRecord[]>;
  /**
   * Threads in the subtree of `scope` whose scope levels match `levels` and whose metadata holds
   * every `metadata` key with an equal JSON value, in `order` (default most recently updated first),
   * ties broken by scope (org, user, agent, thread id) in the same direction. `offset` skips rows of
   * the order; `withTotal` adds `total`, the count of every match. Drivers filter, order, page and
   * count in their query (indexed for one user's threads by either time), never after reading rows.
   */
  list(args: Args<typeof threadArgs.list>): Promise<Page<ThreadRecord>>;
  /** `not_found` if the thread does not exist. Metadata is merged. */
  update(args: Args<typeof threadArgs.update>): Promise<ThreadRecord>;
  /** Deletes the thread and its messages. */
  delete(args: Args<typeof threadArgs.delete>): Promise<{ deleted: boolean }>;
  /**
   * Appends in order, assigning `seq`; creates the thread if missing. A message whose id already
   * exists in the thread is not appended again; its stored record is returned in its place.
   * Message ids are unique per thread. `seq` is never reused while the thread exists (deleted
   * messages leave gaps); concurrent appends never share a `seq`. A thread created here gets the
   * first message's `createdAt`; `updatedAt` moves up to the newest appended message's `createdAt`.
   */
  appendMessages(args: Args<typeof threadArgs.appendMessages>): Promise<MessageRecord[]>;
  /**
   * Messages by `seq`, in `order`, with `afterSeq`/`beforeSeq` as exclusive bounds; with
   * `order: 'desc'` and `limit` n, the last n. A missing thread has no messages.
   */
  listMessages(args: Args<typeof threadArgs.listMessages>): Promise<MessageRecord[]>;
  /**
   * Messages of several threads (each read at exactly its scope; a missing thread has none),
   * created within `since`..`until` (inclusive), with one of `roles` (default any), whose metadata object at `metadataAt` (default the
   * top level) holds every `metadata` key with an equal JSON value; by `createdAt`, then thread
   * scope, then `seq`, all in `order`. Pages by `offset` (never sets `nextCursor`); `withTotal` adds
   * `total`. Drivers filter, order, page and count in their query.
   */
  findMessages(args: Args<typeof threadArgs.findMessages>): Promise<Page<MessageRecord>>;
  /** The thread's messages among `ids`, in the order of `ids`; unknown ids are skipped. */
  getMessages(args: Args<typeof threadArgs.getMessages>): Promise<MessageRecord[]>;
  deleteMessages(args: Args<typeof threadArgs.deleteMessages>): Promise<{ deleted: number }>;
  /**
   * Writes a thread back as it was (an import): creates it, or sets the fields of an existing one
   * to the given ones (so a long thread can be restored in batches), and inserts the messages with
   * their own `seq`, `createdAt` and ids. A message whose id or `seq` is already in the thread fails
   * the whole call with `conflict`. Later appends number on after the highest `seq` written.
   */
  restore(args: Args<typeof threadArgs.restore>): Promise<{ thread: ThreadRecord; messages: number }>;
}

export interface EpisodeDriver {
  /** Inserts; an id that already exists, or appears twice in the batch, fails the whole batch with `conflict`. */
  put(args: Args<typeof episodeArgs.put>): Promise<EpisodeRecord[]>;
  /** Visible episodes among `ids`, in the order of `ids`. */
  get(args: Args<typeof episodeArgs.get>): Promise<EpisodeRecord[]>;
  /** Visible episodes by `occurredAt` (then id) in `order`. */
  list(args: Args<typeof episodeArgs.list>): Promise<Page<EpisodeRecord>>;
  count(args: Args<typeof episodeArgs.count>): Promise<number>;
  /**
   * Keyword candidates: `query` is plain text (no operator syntax; quotes, `*`, `OR`, `-`, `:`,
   * `NEAR(` are literal and never make the call fail). Returns visible episodes containing any query
   * term (after the driver's stemming and stop-word removal), best first; a query with no
   * searchable term returns `[]`. Ranking statistics (IDF, average length) must not let one tenant's
   * data change which of another tenant's episodes are returned beyond ranking noise: compute them
   * per tenant where the engine allows it.
   */
  searchKeyword(args: Args<typeof episodeArgs.searchKeyword>): Promise<ScoredEpisode[]>;
  /**
   * Vector candidates by cosine similarity, best first. Only episodes embedded with the same
   * number of dimensions as `vector` are candidates. With `minScore`, only candidates scoring at
   * least that are returned, and a driver may skip reading those it can tell score below it (a
   * near-duplicate check asks for 0.95 and reads next to nothing).
   */
  searchVector(args: Args<typeof episodeArgs.searchVector>): Promise<ScoredEpisode[]>;
  /** Active episodes stored at exactly `scope` whose `contentHash` is listed, oldest first. */
  findByHash(args: Args<typeof episodeArgs.findByHash>): Promise<EpisodeRecord[]>;
  /** Patches a visible episode (`metadata` merged); `not_found` otherwise. */
  update(args: Args<typeof episodeArgs.update>): Promise<EpisodeRecord>;
  /** Adds 1 to `accessCount` and sets `lastAccessedAt` on each visible id; other ids are ignored. */
  recordAccess(args: Args<typeof episodeArgs.recordAccess>): Promise<void>;
  delete(args: Args<typeof episodeArgs.delete>): Promise<{ deleted: number }>;
}

export interface FactDriver {
  /**
   * Inserts version 1 of (scope, entityType, entityId, key), status `active`. Fails with `conflict`
   * when a current (active or stale) fact already exists for that key at exactly that scope: use
   * `supersede`. (If the key's current version was deleted, the new one numbers on from the highest
   * version left, so versions in `history` stay unique.)
   */
  insert(args: Args<typeof factArgs.insert>): Promise<FactRecord>;
  /**
   * Atomically ends the current version `id` (status `superseded`, `validTo` = at, `supersededBy`)
   * and inserts the next version (same scope and key, version + 1, `supersedes` = id, status
   * active, `validFrom` = `createdAt` = `lastConfirmedAt` = at, `accessLevel` kept unless given).
   * Fails with `not_found` if `id` is not visible from `scope`, with `conflict` if it is no longer
   * current or its version differs from `expectedVersion`; nothing changes then. Of two concurrent
   * supersedes of one version, exactly one succeeds.
   */
  supersede(args: Args<typeof factArgs.supersede>): Promise<{ previous: FactRecord; current: FactRecord }>;
  /** Visible facts among `ids`, in the order of `ids`. */
  get(args: Args<typeof factArgs.get>): Promise<FactRecord[]>;
  /**
   * Facts matching the filters, at `within` of `scope` (default `visible`: its own and its
   * ancestors'), in `order`: `created` (default) most recently created first, then id descending;
   * `confirmed` most recently confirmed first, then entity id and id ascending. `where` holds
   * conditions on the value's fields (`ValueCondition`), evaluated by the query itself; `offset`
   * skips rows of the order. Drivers filter, order and page in their query (indexed for one exact
   * scope's entity type and key in `confirmed` order), never after reading the rows.
   */
  find(args: Args<typeof factArgs.find>): Promise<Page<FactRecord>>;
  /**
   * The distinct prefixes of the entity ids of facts matching the filters (at `within` of `scope`,
   * default `exact`), each id cut before its last `separator` (ids without one are left out), in
   * byte order, paged by cursor: the folders of ids written as paths (`users/ada/prefs` gives
   * `users/ada`). Drivers group in their query; the cost follows the matching facts, the page
   * holds distinct prefixes only.
   */
  entityPrefixes(args: Args<typeof factArgs.entityPrefixes>): Promise<Page<string>>;
  /** Every visible version of the key, by scope depth (ancestors first) then version. */
  history(args: Args<typeof factArgs.history>): Promise<FactRecord[]>;
  /** Status (active/stale), confirmation time, confidence, metadata (merged) of a current fact; `conflict` on a superseded one. */
  update(args: Args<typeof factArgs.update>): Promise<FactRecord>;
  delete(args: Args<typeof factArgs.delete>): Promise<{ deleted: number }>;
  /**
   * Writes fact versions back exactly as they were (an import): ids, versions, statuses, times,
   * links and provenance unchanged. Fails the whole batch with `conflict` when an id already exists,
   * when a key at a scope would hold two versions with the same number, or two current versions.
   */
  restore(args: Args<typeof factArgs.restore>): Promise<{ restored: number }>;
}

export interface GraphDriver {
  /**
   * One node per (exact scope, type, normalised name): an existing one gets the new aliases added,
   * properties merged, status active, `updatedAt` = at, and is returned with its original id (its
   * name, access level and provenance unchanged). Aliases whose normalised form repeats the name or
   * another alias are dropped. A new node whose id is already taken fails with `conflict`.
   */
  upsertNode(args: Args<typeof graphArgs.upsertNode>): Promise<NodeRecord>;
  /** Visible nodes among `ids`, in the order of `ids`. */
  getNodes(args: Args<typeof graphArgs.getNodes>): Promise<NodeRecord[]>;
  /** Visible nodes whose normalised name or an alias equals a normalised `names` entry, by creation time then id. */
  findNodes(args: Args<typeof graphArgs.findNodes>): Promise<NodeRecord[]>;
  /** Visible nodes by creation time, then id. */
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
  /**
   * Visible edges by creation time, then id. With `nodeIds`, only edges leaving (`out`), entering
   * (`in`) or touching (`both`) one of those nodes.
   */
  listEdges(args: Args<typeof graphArgs.listEdges>): Promise<Page<EdgeRecord>>;
  updateEdge(args: Args<typeof graphArgs.updateEdge>): Promise<EdgeRecord>;
  deleteEdges(args: Args<typeof graphArgs.deleteEdges>): Promise<{ deleted: number }>;
  /**
   * Breadth-first over active, visible edges (and active, visible nodes) from `start`, following
   * `direction`, up to `maxHops`; cycles are not followed twice. `start` ids that are not active
   * and visible are ignored (`result.start` lists the ones used). `accessLevel` applies to nodes and
   * edges alike; `limit` caps `reached` (the shallowest nodes are kept).
   */
  traverse(args: Args<typeof graphArgs.traverse>): Promise<TraversalResult>;
}

/** State is per job: every call addresses entries at exactly `scope` (no ancestors). */
export interface StateDriver {
  get(args: Args<typeof stateArgs.get>): Promise<StateEntry | null>;
  set(args: Args<typeof stateArgs.set>): Promise<StateEntry>;
  delete(args: Args<typeof stateArgs.delete>): Promise<{ deleted: boolean }>;
  /** Entries at exactly `scope`, by key. */
  list(args: Args<typeof stateArgs.list>): Promise<Page<StateEntry>>;
  /**
   * Writes entries back as they were (an import), keeping `version` and `updatedAt`. A key that
   * already exists at its scope fails the whole batch with `conflict`.
   */
  restore(args: Args<typeof stateArgs.restore>): Promise<{ restored: number }>;
}

export interface LedgerDriver {
  /**
   * Atomically takes the key: `claimed: true` when no entry exists or the existing claim's lease
   * has expired (`at >= leaseUntil`); otherwise `claimed: false` with the existing entry (a `done`
   * key is never claimed again, and the holder re-claiming a live lease gets `claimed: false` too).
   * Two concurrent claims never both succeed. Entries live at exactly `scope`, like state.
   */
  claim(args: Args<typeof ledgerArgs.claim>): Promise<{ claimed: boolean; entry: LedgerEntry }>;
  /**
   * Marks a key the owner holds as done (idempotent for the same owner, even after its lease ran
   * out as long as nobody took it over); `conflict` otherwise, including for a key never claimed.
   */
  complete(args: Args<typeof ledgerArgs.complete>): Promise<LedgerEntry>;
  /** Drops an unfinished claim the owner holds, so the key can be claimed again. */
  release(args: Args<typeof ledgerArgs.release>): Promise<{ released: boolean }>;
  get(args: Args<typeof ledgerArgs.get>): Promise<LedgerEntry | null>;
  list(args: Args<typeof ledgerArgs.list>): Promise<Page<LedgerEntry>>;
}

export interface ReviewDriver {
  /** Adds a `pending` item, with the `dedupeKey` validation derived from its proposal. */
  add(args: Args<typeof reviewArgs.add>): Promise<ReviewItem>;
  /** Visible items among `ids`, in the order of `ids`. */
  get(args: Args<typeof reviewArgs.get>): Promise<ReviewItem[]>;
  /**
   * Visible items, oldest first (then id). With `dedupeKey`, only items with that key (null: items
   * stored without one); a lookup the engine makes on every proposal, so it must not read the queue.
   */
  list(args: Args<typeof reviewArgs.list>): Promise<Page<ReviewItem>>;
  /** `not_found` unless the item is visible from `scope`; `conflict` unless it is pending. */
  decide(args: Args<typeof reviewArgs.decide>): Promise<ReviewItem>;
}

export interface AuditDriver {
  append(args: Args<typeof auditArgs.append>): Promise<AuditEntry[]>;
  /** Entries in the subtree of `scope`, by time then insertion order; `actions` are exact names. */
  list(args: Args<typeof auditArgs.list>): Promise<Page<AuditEntry>>;
}

export interface ScopeDriver {
  /**
   * Every distinct scope in the subtree of `scope` (`scope` itself and its descendants) where at
   * least one row is stored in any sub-store: threads (and their messages), episodes, facts, nodes,
   * edges, state, ledger, review items or audit entries, whatever their status or access level.
   * Deepest first (most levels set), then by org, user, agent and thread id in byte order, an unset
   * level before any id. Each scope is listed once, with unset levels left out.
   *
   * Without `scope`, every scope in the store, of every tenant (org-rooted and user-rooted alike),
   * in the same order and with the same paging; each is listed once. This is an operator-level read,
   * for tools that show what a store holds (`strata inspect`): like the listing of a subtree, it
   * applies no principal or access-level filter, so never hand its result to an end user unchecked.
   *
   * Reads see a scope and its ancestors, never its descendants, so batch work over a subtree
   * (consolidation, finding an item by id, exporting a user) reads each listed scope in turn. The
   * cost grows with the number of distinct scopes listed (in the subtree, or in the store), not with
   * the rows they hold.
   */
  list(args: Args<typeof scopeArgs.list>): Promise<Page<Scope>>;
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
  readonly scopes: ScopeDriver;
}

/** What a driver implements. Wrap it with `defineStore` to get a `Store`. */
export interface StoreDriver extends SubStores {
  readonly name: string;
  readonly capabilities: StoreCapabilities;
  /**
   * Runs `fn` atomically: every call made through `tx` commits together, or none does if `fn`
   * throws (its error is rethrown unchanged). A call through `tx` that fails changes nothing and
   * does not by itself abort the transaction: `fn` may catch it and go on. Calls on the outer store
   * wait until the transaction ends, or at least never see its uncommitted writes; calls on the
   * store made from inside `fn` (found through async context) join it. Code inside `fn` should make
   * its calls through `tx`.
   *
   * Nested `transaction` calls made inside `fn` run as savepoints of the open transaction, so each
   * is atomic on its own: when the inner function throws, its writes are undone and its error
   * rethrown, while the outer transaction goes on (and still commits or rolls back as a whole);
   * when it returns, its writes become part of the outer transaction. Nested transactions of one
   * transaction run one at a time.
   */
  transaction<T>(fn: (tx: StoreDriverTransaction) => Promise<T>): Promise<T>;
  /**
   * Erases every row in the subtree of `scope` from every sub-store (threads with their messages,
   * episodes, facts, nodes, edges, state, ledger, review, audit), atomically, and counts them.
   */
  forget(args: Args<typeof storeArgs.forget>): Promise<ForgetCounts>;
  close(): Promise<void>;
  /** Optional: the space the store's data takes (files on disk, or a schema's tables). */
  size?(): Promise<StoreSize>;
  /**
   * Optional: brings the schema up to date now (drivers that migrate on open or on first use do
   * it there too) and reports the version and what was applied.
   */
  migrate?(): Promise<StoreMigration>;
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
export type ScopeStore = Public<ScopeDriver, typeof scopeArgs>;

export interface StoreTransaction {
  readonly threads: ThreadStore;
  readonly episodes: EpisodeStore;
  readonly facts: FactStore;
  readonly graph: GraphStore;
  readonly state: StateStore;
  readonly ledger: LedgerStore;
  readonly review: ReviewStore;
  readonly audit: AuditStore;
  readonly scopes: ScopeStore;
}

/** The validated store the engine and users call. Build one with `defineStore(driver)`. */
export interface Store extends StoreTransaction {
  readonly specificationVersion: typeof STORE_SPECIFICATION_VERSION;
  readonly name: string;
  readonly capabilities: StoreCapabilities;
  transaction<T>(fn: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  forget(args: z.input<typeof storeArgs.forget>): Promise<ForgetCounts>;
  close(): Promise<void>;
  /** The space the data takes; absent when the driver cannot tell. */
  size?(): Promise<StoreSize>;
  /** Brings the schema up to date and reports it; absent when the driver has no schema. */
  migrate?(): Promise<StoreMigration>;
}
