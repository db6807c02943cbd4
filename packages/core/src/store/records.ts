import type { Scope } from '../scope/scope.ts';

/**
 * The records a Store keeps, as read back. Times are epoch milliseconds. Every record carries
 * its scope (tenant key) and, for long-term items, provenance: which message, which principal, when.
 */

export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';

/** JSON-compatible value (what facts, state and metadata may hold). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type Metadata = Record<string, JsonValue>;

/** Where an item came from. */
export interface Provenance {
  /** How it entered memory. */
  source: 'observation' | 'extraction' | 'human' | 'api' | 'consolidation';
  /** The message it was observed in or extracted from. */
  messageId?: string;
  /** The episode it was observed in or extracted from. */
  episodeId?: string;
  /** The thread it came from (long-term items outlive their thread's scope). */
  threadId?: string;
  /** Who said or wrote it (a user id, an agent id, `system`). */
  principalId?: string;
  /** Which extractor produced it (`rules@1`, `model:gpt-x`). */
  extractor?: string;
  /** How a human-made value arrived, when not typed in directly (e.g. `imported edit`). */
  via?: string;
  /** When it was recorded. */
  at: number;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  input: JsonValue;
}

export interface ThreadRecord {
  /** The thread's full scope; `scope.threadId` is the thread id. */
  scope: Scope;
  title?: string;
  metadata: Metadata;
  /** Rolling summary of messages that fell out of the working window. */
  summary?: string;
  /** Messages with `seq <=` this value are covered by `summary`. */
  summarizedThroughSeq?: number;
  createdAt: number;
  updatedAt: number;
}

export interface MessageRecord {
  id: string;
  /** The thread's scope. */
  scope: Scope;
  /** Position in the thread, assigned by the store, strictly increasing from 1. */
  seq: number;
  role: MessageRole;
  content: string;
  /** Speaker or tool name. */
  name?: string;
  toolCalls?: ToolCallRecord[];
  toolCallId?: string;
  createdAt: number;
  metadata: Metadata;
}

export type EpisodeStatus = 'active' | 'merged' | 'archived';

export interface EpisodeRecord {
  id: string;
  scope: Scope;
  text: string;
  role?: MessageRole;
  speaker?: string;
  /** When the event happened (a message's time, a session's date). */
  occurredAt: number;
  createdAt: number;
  /** 0..1, set at write time, raised by access. */
  importance: number;
  accessCount: number;
  lastAccessedAt?: number;
  /** Unit-length vector, present when an embedder was configured at write time. */
  embedding?: number[];
  /** Hash of the normalised text, for exact-duplicate detection. */
  contentHash: string;
  status: EpisodeStatus;
  /** Set when `status` is `merged`: the episode it was merged into. */
  mergedInto?: string;
  /** Minimum principal access level allowed to see it (0 = everyone in scope). */
  accessLevel: number;
  provenance: Provenance;
  metadata: Metadata;
}

export type FactStatus = 'active' | 'pending_review' | 'superseded' | 'stale';

/** A fact is current while its status is `active` or `stale` (stale = unconfirmed for long, still the latest value). */
export const CURRENT_FACT_STATUSES: readonly FactStatus[] = ['active', 'stale'];

export interface FactRecord {
  id: string;
  scope: Scope;
  /** e.g. `supplier`, `user`, `project`. Lower-case. */
  entityType: string;
  /** Normalised entity name or id, e.g. `supplier x`. */
  entityId: string;
  /** Normalised attribute, e.g. `lead time`. */
  key: string;
  value: JsonValue;
  /** 0..1 */
  confidence: number;
  status: FactStatus;
  validFrom: number;
  /** Set when superseded. */
  validTo?: number;
  /** 1 for the first value of (scope, entityType, entityId, key), +1 for each supersede. */
  version: number;
  /** The version this one replaced. */
  supersedes?: string;
  /** The version that replaced this one. */
  supersededBy?: string;
  lastConfirmedAt: number;
  accessLevel: number;
  provenance: Provenance;
  createdAt: number;
  metadata: Metadata;
}

export type GraphItemStatus = 'active' | 'superseded';

export interface NodeRecord {
  id: string;
  scope: Scope;
  /** e.g. `entity`, `component`, `decision`, `person`. Lower-case. */
  type: string;
  /** Display name. */
  name: string;
  /** Other names the node is known by (display form). */
  aliases: string[];
  properties: Metadata;
  status: GraphItemStatus;
  accessLevel: number;
  provenance: Provenance;
  createdAt: number;
  updatedAt: number;
}

export interface EdgeRecord {
  id: string;
  scope: Scope;
  /** Source node id. */
  from: string;
  /** Target node id. */
  to: string;
  /** e.g. `depends_on`, `affects`, `supersedes`, `decided_by`. Lower snake case. */
  relation: string;
  properties: Metadata;
  confidence: number;
  status: GraphItemStatus;
  validFrom: number;
  validTo?: number;
  accessLevel: number;
  provenance: Provenance;
  createdAt: number;
}

export interface StateEntry {
  scope: Scope;
  key: string;
  value: JsonValue;
  /** 1 on first write, +1 per write. */
  version: number;
  updatedAt: number;
}

export interface LedgerEntry {
  scope: Scope;
  key: string;
  status: 'claimed' | 'done';
  owner: string;
  claimedAt: number;
  /** A claim not completed by then may be taken over (the holder is presumed dead). */
  leaseUntil: number;
  completedAt?: number;
  result?: JsonValue;
}

export type ReviewStatus = 'pending' | 'approved' | 'rejected';
export type ReviewReason = 'low_confidence' | 'hypothetical' | 'conflict' | 'manual';

export interface ReviewItem {
  id: string;
  scope: Scope;
  kind: 'fact' | 'edge';
  reason: ReviewReason;
  /** The proposed fact or edge, as the engine will write it if approved. */
  proposal: Metadata;
  /**
   * What it proposes, as a key (`reviewDedupeKey`): items with the same key propose the same change.
   * The store sets it on `add`; absent on items an earlier version stored.
   */
  dedupeKey?: string;
  confidence: number;
  status: ReviewStatus;
  accessLevel: number;
  provenance: Provenance;
  createdAt: number;
  decidedAt?: number;
  decidedBy?: string;
  note?: string;
}

export interface AuditEntry {
  id: string;
  scope: Scope;
  at: number;
  /** Dotted verb, e.g. `fact.supersede`, `episode.merge`, `extract.failed`, `forget`. */
  action: string;
  /** Principal id, or `system`. */
  actor: string;
  subjectType?: string;
  subjectId?: string;
  details: Metadata;
}

export interface Page<T> {
  items: T[];
  /** Pass back as `cursor` to get the next page; absent on the last page. */
  nextCursor?: string;
  /** Every match of the listing's filters, whatever the page (listings called with `withTotal: true`). */
  total?: number;
}
