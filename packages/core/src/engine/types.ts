import type { Clock, Embedder, Extractor, Summarizer, Tokenizer } from '../ports/ports.ts';
import type { Scope } from '../scope/scope.ts';
import type { ExportOptions } from '../snapshot/export-snapshot.ts';
import type { ImportOptions } from '../snapshot/import-snapshot.ts';
import type { MemorySnapshot, SnapshotCounts } from '../snapshot/snapshot-schema.ts';
import type { ForgetCounts, Store, TraversalResult } from '../store/contract.ts';
import type {
  AuditEntry,
  EdgeRecord,
  EpisodeRecord,
  FactRecord,
  JsonValue,
  LedgerEntry,
  MessageRecord,
  MessageRole,
  Metadata,
  NodeRecord,
  Page,
  ReviewItem,
  StateEntry,
  ToolCallRecord,
} from '../store/records.ts';

/**
 * The engine's public surface: `createMemory(options)` returns a `Memory`.
 * Adapters (AI SDK, LangChain, Mastra) only ever call what is declared here.
 */

/** Tunable rules. Every field has a default (see `defaultPolicy`). */
export interface MemoryPolicy {
  /** Extractions below this confidence go to the review queue. Default 0.75. */
  reviewThreshold: number;
  /** A fact unconfirmed for this many days is flagged stale. Default 90. */
  staleAfterDays: number;
  /** Episode recency weight halves every this many days. Default 30. */
  recencyHalfLifeDays: number;
  /** Episodes at or above this cosine similarity are near-duplicates. Default 0.95. */
  duplicateSimilarity: number;
  /**
   * Where long-term items (episodes, facts, graph) observed in a thread are stored:
   * `shared` (default) at the thread's scope without `threadId`, so every thread of the same
   * user/agent recalls them; `thread` at the thread's own scope.
   */
  longTermScope: 'shared' | 'thread';
  /** Token budget of a recall when the caller gives none. Default 2000. */
  defaultBudgetTokens: number;
  /** Share of the budget the working window may use when a query is given. Default 0.4. */
  workingShare: number;
  /** Earlier messages given to the extractor as context. Default 4. */
  extractionContextTurns: number;
  /** Named roles, lowest first; a principal's role maps to its index as access level. Default ['member', 'manager', 'admin']. */
  roles: string[];
}

/** Who is asking. Sees only items whose access level is at or below its own. */
export interface Principal {
  id: string;
  /** A name from `policy.roles`. */
  role?: string;
  /** Explicit access level (wins over `role`). */
  level?: number;
}

export interface MemoryOptions {
  store: Store;
  /** Enables vector search and near-duplicate detection. Without one, recall is keyword-only. */
  embedder?: Embedder;
  /** Defaults to the deterministic rules extractor. */
  extractor?: Extractor;
  /** Defaults to the extractive summarizer. */
  summarizer?: Summarizer;
  /** Defaults to a tiktoken (o200k_base) tokenizer. */
  tokenizer?: Tokenizer;
  clock?: Clock;
  policy?: Partial<MemoryPolicy>;
}

/** One message to observe. */
export interface ObserveInput {
  /** Stable id (e.g. the framework's message id); observing the same id twice is a no-op. */
  id?: string;
  role: MessageRole;
  content: string;
  /** Speaker name. */
  name?: string;
  /** When it was said. Defaults to the clock. */
  at?: Date | number | string;
  toolCalls?: ToolCallRecord[];
  toolCallId?: string;
  metadata?: Metadata;
  /** 0..1; estimated when absent. */
  importance?: number;
  /** Minimum access level to see what is learned from it (a role name or a level). Default 0. */
  access?: string | number;
}

export interface ObserveOptions {
  principal?: Principal;
  /** Run the extractor (default true). */
  extract?: boolean;
  signal?: AbortSignal;
}

export interface ObserveResult {
  messages: MessageRecord[];
  /** Episodes written (duplicates of existing ones are not written again). */
  episodes: EpisodeRecord[];
  /** How many inputs were exact or near duplicates of stored episodes. */
  duplicates: number;
  /**
   * Each input that was an exact or near duplicate, with the id of the existing episode it was
   * folded into (an episode stored earlier, or one written by this same call) and their similarity.
   */
  folded: Array<{ messageId: string; episodeId: string; similarity: number }>;
  facts: { written: FactRecord[]; superseded: FactRecord[]; confirmed: FactRecord[] };
  review: ReviewItem[];
  nodes: NodeRecord[];
  edges: EdgeRecord[];
  extraction: { extractor: string; ok: boolean; error?: string };
}

export type Layer = 'working' | 'summary' | 'facts' | 'episodes' | 'graph';

export interface RecallOptions {
  /** What the agent is about to answer. Without it, recall returns working memory and facts. */
  query?: string;
  budget?: { tokens: number };
  principal?: Principal;
  /** Restrict to these layers (default all). */
  layers?: Layer[];
  /** Most episodes to consider after fusion. Default 20. */
  maxEpisodes?: number;
  /**
   * Default true: only candidates that clear the relevance bar enter the block, however much
   * budget is left. False lets every ranked candidate compete for the budget (to evaluate the
   * ranking itself).
   */
  relevanceBar?: boolean;
}

/** Why an item is in the context, with the numbers behind it. */
export interface ItemScores {
  keyword?: number;
  vector?: number;
  fused?: number;
  recency?: number;
  importance?: number;
  access?: number;
  time?: number;
  /** The final value the packer used. */
  final: number;
}

export interface RecalledItem {
  layer: Exclude<Layer, 'working' | 'summary'>;
  id: string;
  /** What is rendered for it. */
  text: string;
  tokens: number;
  scores: ItemScores;
  /** Plain-language reason, e.g. `keyword + vector match, boosted: time window "May 2023"`. */
  reason: string;
  /** Where it came from: episodes and messages (for provenance and evaluation). */
  sources: { episodeIds: string[]; messageIds: string[] };
}

export interface RecalledFact extends RecalledItem {
  layer: 'facts';
  fact: FactRecord;
  /** True when unconfirmed past `staleAfterDays`: rendered with a caveat. */
  stale: boolean;
}

export interface RecalledEpisode extends RecalledItem {
  layer: 'episodes';
  episode: EpisodeRecord;
}

export interface RecalledPath extends RecalledItem {
  layer: 'graph';
  nodes: NodeRecord[];
  edges: EdgeRecord[];
}

export interface ExplainEntry {
  layer: Layer;
  id: string;
  tokens: number;
  scores?: ItemScores;
  /** How it was found, e.g. `keyword + vector match`; for what was left out, also why. */
  reason: string;
  /** The bar or rule it cleared or missed, e.g. `below the relevance bar: 0.21 < 0.40 (…)`. */
  rule?: string;
  /** The line it renders as (long-term items). */
  text?: string;
  included: boolean;
}

/**
 * What `explain()` returns: every candidate, included or not. `String(explanation)` is a table
 * a person can read in a terminal (see `formatExplanation`).
 */
export type Explanation = ExplainEntry[];

export interface MemoryContext {
  scope: Scope;
  query?: string;
  sections: {
    working: MessageRecord[];
    summary?: string;
    facts: RecalledFact[];
    episodes: RecalledEpisode[];
    graph: RecalledPath[];
  };
  /** Every long-term item included, best first (facts, episodes and graph paths interleaved by value). */
  items: RecalledItem[];
  /** Tokens of `render()` (the whole block); never more than the recall's budget. */
  tokens: number;
  /**
   * One delimited block for a system prompt. Memory text is escaped data, never instructions.
   *
   * `omit` leaves sections out of the block, for a host that shows them some other way: an adapter
   * that passes `sections.working` as its own chat messages renders the rest with
   * `render({ omit: ['working'] })`, from the same recall. Budget accounting: the recall fitted the
   * whole block (`tokens`) into the budget, the working window's lines included, so the block
   * without them is smaller (never larger) and the block plus the window's messages costs about
   * `tokens` (the host adds its own per-message framing). Omitting a section never makes room for
   * more of the others: it is the same selection, shown in parts.
   */
  render(options?: { omit?: Layer[] }): string;
  /** Every candidate considered, included or not, with its scores and the reason. */
  explain(): Explanation;
}

export interface FactKey {
  /**
   * Reads without it match the entity under any type. Writes default to `entity`; on a write, a
   * key memory already holds for the entity under exactly one other type is written to that fact
   * (one name, one current value per key), and an omitted or generic `entity` type takes the one
   * type memory holds for the name.
   */
  entityType?: string;
  /** The entity's name or id (normalised by the engine). */
  entity: string;
  key: string;
}

export interface FactsApi {
  /** The current value (the most specific scope wins), or null. */
  get(scope: Scope, key: FactKey, options?: { principal?: Principal }): Promise<FactRecord | null>;
  /** Current facts, optionally of one entity. */
  list(
    scope: Scope,
    filter?: { entityType?: string; entity?: string },
    options?: { principal?: Principal },
  ): Promise<FactRecord[]>;
  /**
   * Current facts the store selects, filters, orders and pages itself (no read of the rest): a
   * page of `facts.find` for the principal, with staleness applied. Without `within` it reads
   * `scope` and its ancestors; `exact` reads `scope` alone, `subtree` it and its descendants.
   */
  find(scope: Scope, query?: FactFindQuery, options?: { principal?: Principal }): Promise<Page<FactRecord>>;
  /**
   * Current facts ranked by how well their index texts (`remember`'s `index`) match `query`: the
   * engine's hybrid episodic retrieval over each scope read, each fact scored by the best of its
   * index episodes, best first (ties by last confirmation, then entity id), at most
   * `LIMITS.maxBatch` of them. Facts without an index episode among the candidates are not returned.
   */
  search(scope: Scope, query: FactSearchQuery, options?: { principal?: Principal }): Promise<ScoredFact[]>;
  /** Every version of a key, oldest first. */
  history(scope: Scope, key: FactKey, options?: { principal?: Principal }): Promise<FactRecord[]>;
  /**
   * Writes a value: new key → version 1; changed value → supersedes; same value → confirms.
   * Below the review threshold it goes to the review queue instead.
   */
  remember(
    scope: Scope,
    input: FactKey & {
      value: JsonValue;
      confidence?: number;
      principal?: Principal;
      access?: string | number;
      /** Merged into the fact's metadata (the engine's own keys, e.g. `correction`, are refused). */
      metadata?: Metadata;
      /**
       * Texts that make the fact findable by search, kept as episodes that belong to it (role
       * `system`, `speaker` if given; `metadata.indexes` names the fact). A later `remember` of the
       * key with `index` replaces the set (texts no longer given lose their episode); without
       * `index` the set stays; `forgetItem` of the fact deletes them. `texts: []` removes the index.
       * Applies when the value is written or confirmed, not when it goes to review.
       */
      index?: { texts: string[]; speaker?: string };
    },
  ): Promise<{
    fact?: FactRecord;
    previous?: FactRecord;
    review?: ReviewItem;
    confirmed: boolean;
    /** With `index`: the ids of the episodes that now index the fact, one per distinct text. */
    indexEpisodeIds?: string[];
  }>;
  /** A human correction: supersedes whatever is current, confidence 1, recorded as `human`. */
  correct(
    scope: Scope,
    input: FactKey & {
      value: JsonValue;
      principal?: Principal;
      /** How the correction arrived, kept in its provenance (e.g. `imported edit`). */
      via?: string;
    },
  ): Promise<{ fact: FactRecord; previous?: FactRecord }>;
  /** Marks a fact as still true now (clears stale). */
  confirm(scope: Scope, id: string, options?: { principal?: Principal }): Promise<FactRecord>;
  /**
   * The episodes that stated this version's value, each a confirmation of it (the first is the one
   * it was read from): how many, when first and last seen, and, for those visible from `scope`,
   * their text and status (a paraphrase merged by consolidation has status `merged`).
   */
  confirmationsOf(scope: Scope, id: string, options?: { principal?: Principal }): Promise<FactConfirmations>;
}

/** Which facts `facts.find` and `facts.search` read. */
export interface FactSelection {
  entityType?: string;
  /** One entity (normalised like every entity name). */
  entity?: string;
  /** Entity ids that start with this, compared as stored. */
  entityPrefix?: string;
  key?: string;
  /**
   * Conditions on the value's top-level fields: `{ field: value }` (JSON equality) or
   * `{ field: { $eq | $ne | $gt | $gte | $lt | $lte | $in | $nin: operand } }`; all must hold.
   * An unknown operator, or a comparison with something other than a number, is `invalid_input`.
   */
  where?: Record<string, JsonValue>;
  /** `visible` (default): the scope and its ancestors; `exact`: the scope alone; `subtree`: it and its descendants. */
  within?: 'visible' | 'exact' | 'subtree';
}

export interface FactFindQuery extends FactSelection {
  /** `created` (default): newest first. `confirmed`: last confirmed first, then entity id. */
  order?: 'created' | 'confirmed';
  /** Fact ids to leave out. */
  exclude?: string[];
  limit?: number;
  /** Facts of the order to skip (instead of `cursor`). */
  offset?: number;
  cursor?: string;
}

export interface FactSearchQuery extends FactSelection {
  query: string;
  /** Index episodes ranked per scope searched, 1-200 (default 200). */
  candidates?: number;
}

/** A fact and its relevance to a search (the fused, re-weighted score recall ranks by). */
export interface ScoredFact {
  fact: FactRecord;
  score: number;
}

export interface FactConfirmations {
  factId: string;
  count: number;
  /** When the value was first stated (the version's `validFrom`). */
  firstSeenAt: number;
  /** When it was last stated or confirmed (`lastConfirmedAt`). */
  lastSeenAt: number;
  sources: Array<{
    episodeId: string;
    occurredAt?: number;
    text?: string;
    status?: EpisodeRecord['status'];
    mergedInto?: string;
  }>;
}

export interface NodeRef {
  /** A node id, or a name / alias to look up. */
  id?: string;
  name?: string;
  type?: string;
}

export interface ImpactResult {
  /** The node asked about. */
  node: NodeRecord;
  /** What depends on it or is affected by it, within the hop bound. */
  affected: Array<{ node: NodeRecord; depth: number; path: { nodeIds: string[]; edgeIds: string[] } }>;
  /**
   * Nodes it changes directly (`affects` edges) that others depend on: the impact flows through
   * them to their dependents in `affected`, so they are listed here rather than there.
   */
  through?: NodeRecord[];
}

export interface Contradiction {
  kind: 'fact' | 'edge';
  /** The items that cannot all be true. */
  ids: string[];
  description: string;
}

export interface GraphApi {
  upsertNode(
    scope: Scope,
    input: { type?: string; name: string; aliases?: string[]; properties?: Metadata; principal?: Principal },
  ): Promise<NodeRecord>;
  relate(
    scope: Scope,
    input: {
      from: NodeRef;
      relation: string;
      to: NodeRef;
      properties?: Metadata;
      confidence?: number;
      principal?: Principal;
    },
  ): Promise<EdgeRecord>;
  traverse(
    scope: Scope,
    input: {
      from: NodeRef | NodeRef[];
      relations?: string[];
      direction?: 'out' | 'in' | 'both';
      maxHops?: number;
      principal?: Principal;
    },
  ): Promise<TraversalResult>;
  /** What depends on / is affected by a node (e.g. "what breaks if we roll back X?"). */
  impact(
    scope: Scope,
    input: { node: NodeRef; maxHops?: number; principal?: Principal },
  ): Promise<ImpactResult>;
  /** Active facts or edges that cannot all be true. */
  contradictions(scope: Scope, options?: { principal?: Principal }): Promise<Contradiction[]>;
  /** Marks an edge or node superseded (never deleted); records why. */
  supersede(scope: Scope, input: { id: string; reason?: string; principal?: Principal }): Promise<void>;
}

export interface StateApi {
  get(scope: Scope, key: string): Promise<StateEntry | null>;
  set(
    scope: Scope,
    key: string,
    value: JsonValue,
    options?: { expectedVersion?: number },
  ): Promise<StateEntry>;
  delete(scope: Scope, key: string): Promise<boolean>;
}

export interface LedgerApi {
  /** Takes `key` for `owner` unless someone handled or is handling it. */
  claim(
    scope: Scope,
    key: string,
    options?: { owner?: string; leaseMs?: number },
  ): Promise<{ claimed: boolean; entry: LedgerEntry }>;
  complete(scope: Scope, key: string, options: { owner: string; result?: JsonValue }): Promise<LedgerEntry>;
  release(scope: Scope, key: string, options: { owner: string }): Promise<boolean>;
  /**
   * Runs `fn` only if `key` was never handled: claim, run, complete. If `fn` throws, the claim is
   * released so a later run retries it. `ran: false` when it was already handled.
   */
  once<T extends JsonValue | undefined>(
    scope: Scope,
    key: string,
    fn: () => Promise<T>,
    options?: { owner?: string; leaseMs?: number },
  ): Promise<{ ran: boolean; result?: JsonValue }>;
}

export interface ReviewApi {
  list(
    scope: Scope,
    options?: { status?: ReviewItem['status'][]; principal?: Principal },
  ): Promise<ReviewItem[]>;
  /**
   * Writes the proposed fact/edge and marks the item approved. `fact` names the fact a fact
   * proposal is about when the engine could not tell (`proposal.unresolved`), or corrects it; the
   * entity type defaults to the one memory holds for that entity and key.
   */
  approve(
    scope: Scope,
    id: string,
    options?: { principal?: Principal; note?: string; fact?: FactKey },
  ): Promise<{ item: ReviewItem; fact?: FactRecord; edge?: EdgeRecord }>;
  reject(scope: Scope, id: string, options?: { principal?: Principal; note?: string }): Promise<ReviewItem>;
}

export interface AuditApi {
  list(
    scope: Scope,
    options?: { actions?: string[]; since?: number; limit?: number; cursor?: string },
  ): Promise<Page<AuditEntry>>;
}

export interface ConsolidateOptions {
  /** Report what would change without changing anything. */
  dryRun?: boolean;
  /** Limit to one subtree (default: every scope the given one contains). */
  scope: Scope;
  /** Episodes whose decayed value falls below this are archived into a summary. Default 0.05. */
  archiveBelow?: number;
}

export interface ConsolidationReport {
  dryRun: boolean;
  /**
   * Each merge: the kept episode, the ones folded into it, the lowest similarity that joined them
   * (for episodes joined by a shared fact, their cosine, 0 without embeddings) and the facts every
   * one of them stated when that is what joined them (empty for a text or similarity merge).
   */
  merged: Array<{
    keptId: string;
    mergedIds: string[];
    similarity: number;
    facts: Array<{ id: string; entityType: string; entityId: string; key: string; value: JsonValue }>;
  }>;
  archived: Array<{ ids: string[]; summaryEpisodeId?: string }>;
  staleFacts: string[];
  supersededGraph: string[];
  /** Audit entries written (empty on a dry run). */
  auditIds: string[];
  /**
   * What was examined, so an empty list above reads as "looked and found nothing": scopes in the
   * subtree, active episodes, active facts, and active replacement edges (`replaces`/`supersedes`).
   */
  checked: { scopes: number; episodes: number; facts: number; replacementEdges: number };
  /**
   * One plain-language line per step (merge, archive, stale, graph), saying what was (or, on a dry
   * run, would be) done, or why there was nothing to do.
   */
  notes: string[];
}

export interface Memory {
  readonly store: Store;
  readonly policy: Readonly<MemoryPolicy>;
  readonly tokenizer: Tokenizer;
  readonly clock: Clock;
  /** Buffer + episodes + extraction, in one call. */
  observe(
    scope: Scope,
    input: ObserveInput | ObserveInput[],
    options?: ObserveOptions,
  ): Promise<ObserveResult>;
  /** The context bundle for the next model call. */
  recall(scope: Scope, options?: RecallOptions): Promise<MemoryContext>;
  readonly facts: FactsApi;
  readonly graph: GraphApi;
  readonly state: StateApi;
  readonly ledger: LedgerApi;
  readonly review: ReviewApi;
  readonly audit: AuditApi;
  /** Deletes one episode, fact (whole history), node or edge by id, only within `scope`'s subtree. */
  forgetItem(
    scope: Scope,
    id: string,
    options?: { principal?: Principal },
  ): Promise<{ deleted: boolean; layer?: Layer }>;
  /** Erases every layer's data at or below `scope` (right to be forgotten); audited without contents. */
  forget(scope: Scope, options?: { principal?: Principal }): Promise<ForgetCounts>;
  consolidate(options: ConsolidateOptions): Promise<ConsolidationReport>;
  /**
   * A lossless, versioned, JSON-serialisable snapshot of the subtree of `options.scope` (every
   * tenant without it): every layer's records with their ids, versions, times and provenance.
   */
  export(options?: ExportOptions): Promise<MemorySnapshot>;
  /**
   * Writes a snapshot (from `export`, or parsed from its JSON) into this memory's store as it was.
   * A wrong format or version or a malformed record is `invalid_input`; an id the store already
   * holds is `conflict`; either way nothing is written. Not audited: the snapshot carries the
   * source's audit log.
   */
  import(snapshot: unknown, options?: ImportOptions): Promise<SnapshotCounts>;
  close(): Promise<void>;
}
