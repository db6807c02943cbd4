import { type Scope, tenantOf } from '../../scope/scope.ts';
import { normalizeName } from '../normalize.ts';
import type {
  AuditEntry,
  EdgeRecord,
  EpisodeRecord,
  FactRecord,
  LedgerEntry,
  MessageRecord,
  NodeRecord,
  ReviewItem,
  StateEntry,
  ThreadRecord,
} from '../records.ts';
import { Journal } from './journal.ts';
import { KeywordIndex } from './keyword-index.ts';
import { compositeKey, exactScopeKey, visibleScopeKeys } from './row-keys.ts';
import { ScopeRegistry } from './scope-registry.ts';
import { Table } from './table.ts';
import { Timeline } from './timeline.ts';

export interface ThreadRow {
  record: ThreadRecord;
  /** The `seq` the next appended message gets; never reused while the thread exists. */
  nextSeq: number;
}

export interface EpisodeRow {
  record: EpisodeRecord;
  /** Euclidean norm of `record.embedding` (0 when absent), so a search never recomputes it. */
  norm: number;
}

export interface AuditRow {
  entry: AuditEntry;
  /** Insertion order, the tie-breaker between entries with the same time. */
  seq: number;
}

export { compositeKey, exactScopeKey };

export function factKeyOf(fact: Pick<FactRecord, 'scope' | 'entityType' | 'entityId' | 'key'>): string {
  return compositeKey(exactScopeKey(fact.scope), fact.entityType, fact.entityId, fact.key);
}

export function nodeKeyOf(node: { scope: Scope; type: string; name: string }): string {
  return compositeKey(exactScopeKey(node.scope), node.type, normalizeName(node.name));
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(value);
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  set?.delete(value);
  if (set?.size === 0) map.delete(key);
}

function nodeNames(node: NodeRecord): Set<string> {
  return new Set([node.name, ...node.aliases].map(normalizeName));
}

/**
 * Every row the in-memory store holds, with the secondary indexes reads need: messages per
 * thread, a keyword index per tenant, the current version of each fact key, nodes by key and by
 * name, edges by node. All of it changes through journaled tables, so a rollback restores the
 * indexes too.
 */
export class MemoryTables {
  readonly journal = new Journal();

  readonly threads = new Table<ThreadRow>(this.journal, (row) => row.record.scope);
  readonly messages = new Table<MessageRecord>(this.journal, (row) => row.scope);
  readonly episodes = new Table<EpisodeRow>(this.journal, (row) => row.record.scope);
  readonly facts = new Table<FactRecord>(this.journal, (row) => row.scope);
  readonly nodes = new Table<NodeRecord>(this.journal, (row) => row.scope);
  readonly edges = new Table<EdgeRecord>(this.journal, (row) => row.scope);
  readonly state = new Table<StateEntry>(this.journal, (row) => row.scope);
  readonly ledger = new Table<LedgerEntry>(this.journal, (row) => row.scope);
  readonly review = new Table<ReviewItem>(this.journal, (row) => row.scope);
  readonly audit = new Table<AuditRow>(this.journal, (row) => row.entry.scope);

  /** Thread id → keys of the threads with that id (one per scope it is used in). */
  readonly threadsById = new Map<string, Set<string>>();
  /** Thread key → message id → message. */
  readonly messagesByThread = new Map<string, Map<string, MessageRecord>>();
  /** Tenant → keyword index over its episodes' text, partitioned by exact scope. */
  readonly keywordIndexes = new Map<string, KeywordIndex>();
  /** Tenant → exact scope key → episode id → row: reads visit only the scopes they may see. */
  readonly episodesByScope = new Map<string, Map<string, Map<string, EpisodeRow>>>();
  /** Tenant → exact scope key → its episodes in time order, for reads bounded in time. */
  readonly episodeTimelines = new Map<string, Map<string, Timeline<EpisodeRow>>>();
  /** Which exact scopes hold rows in any table. */
  readonly scopes = new ScopeRegistry();
  /** Fact key → ids of every stored version. */
  readonly factVersions = new Map<string, Set<string>>();
  /** Fact key → id of its current (active or stale) version. */
  readonly currentFacts = new Map<string, string>();
  /** Node key (exact scope, type, normalised name) → node id. */
  readonly nodeByKey = new Map<string, string>();
  /** Tenant → normalised name or alias → node ids. */
  readonly nodesByName = new Map<string, Map<string, Set<string>>>();
  /** Node id → ids of edges from or to it. */
  readonly edgesByNode = new Map<string, Set<string>>();

  private auditSeq = 0;

  constructor() {
    this.scopes.watch(this.threads, (row) => row.record.scope);
    this.scopes.watch(this.messages, (row) => row.scope);
    this.scopes.watch(this.episodes, (row) => row.record.scope);
    this.scopes.watch(this.facts, (row) => row.scope);
    this.scopes.watch(this.nodes, (row) => row.scope);
    this.scopes.watch(this.edges, (row) => row.scope);
    this.scopes.watch(this.state, (row) => row.scope);
    this.scopes.watch(this.ledger, (row) => row.scope);
    this.scopes.watch(this.review, (row) => row.scope);
    this.scopes.watch(this.audit, (row) => row.entry.scope);

    this.threads.onChange((before, after) => {
      if (before && !after)
        removeFrom(this.threadsById, before.record.scope.threadId!, exactScopeKey(before.record.scope));
      if (after && !before)
        addTo(this.threadsById, after.record.scope.threadId!, exactScopeKey(after.record.scope));
    });

    this.messages.onChange((before, after) => {
      if (before) {
        const key = exactScopeKey(before.scope);
        const thread = this.messagesByThread.get(key);
        thread?.delete(before.id);
        if (thread?.size === 0) this.messagesByThread.delete(key);
      }
      if (after) {
        const key = exactScopeKey(after.scope);
        let thread = this.messagesByThread.get(key);
        if (!thread) {
          thread = new Map();
          this.messagesByThread.set(key, thread);
        }
        thread.set(after.id, after);
      }
    });

    this.episodes.onChange((before, after) => {
      if (before) {
        const tenant = tenantOf(before.record.scope);
        const byScope = this.episodesByScope.get(tenant)!;
        const key = exactScopeKey(before.record.scope);
        const rows = byScope.get(key)!;
        rows.delete(before.record.id);
        if (rows.size === 0) byScope.delete(key);
        if (byScope.size === 0) this.episodesByScope.delete(tenant);
        const timelines = this.episodeTimelines.get(tenant)!;
        const timeline = timelines.get(key)!;
        timeline.remove(before);
        if (timeline.size === 0) timelines.delete(key);
        if (timelines.size === 0) this.episodeTimelines.delete(tenant);
      }
      if (after) {
        const tenant = tenantOf(after.record.scope);
        let byScope = this.episodesByScope.get(tenant);
        if (!byScope) {
          byScope = new Map();
          this.episodesByScope.set(tenant, byScope);
        }
        const key = exactScopeKey(after.record.scope);
        let rows = byScope.get(key);
        if (!rows) {
          rows = new Map();
          byScope.set(key, rows);
        }
        rows.set(after.record.id, after);
        let timelines = this.episodeTimelines.get(tenant);
        if (!timelines) {
          timelines = new Map();
          this.episodeTimelines.set(tenant, timelines);
        }
        let timeline = timelines.get(key);
        if (!timeline) {
          timeline = new Timeline(
            (row) => row.record.occurredAt,
            (row) => row.record.id,
          );
          timelines.set(key, timeline);
        }
        timeline.add(after);
      }
    });

    this.episodes.onChange((before, after) => {
      if (before && after && before.record.text === after.record.text) return;
      if (before) {
        const tenant = tenantOf(before.record.scope);
        const index = this.keywordIndexes.get(tenant);
        index?.remove(before.record.id);
        if (index?.size === 0) this.keywordIndexes.delete(tenant);
      }
      if (after) {
        const tenant = tenantOf(after.record.scope);
        let index = this.keywordIndexes.get(tenant);
        if (!index) {
          index = new KeywordIndex();
          this.keywordIndexes.set(tenant, index);
        }
        index.add(after.record.id, after.record.text, exactScopeKey(after.record.scope));
      }
    });

    this.facts.onChange((before, after) => {
      const isCurrent = (fact: FactRecord) => fact.status === 'active' || fact.status === 'stale';
      if (before && isCurrent(before) && this.currentFacts.get(factKeyOf(before)) === before.id) {
        this.currentFacts.delete(factKeyOf(before));
      }
      if (after && isCurrent(after)) this.currentFacts.set(factKeyOf(after), after.id);
      if (before && !after) removeFrom(this.factVersions, factKeyOf(before), before.id);
      if (after && !before) addTo(this.factVersions, factKeyOf(after), after.id);
    });

    this.nodes.onChange((before, after) => {
      if (before) {
        const key = nodeKeyOf(before);
        if (this.nodeByKey.get(key) === before.id) this.nodeByKey.delete(key);
        const names = this.nodesByName.get(tenantOf(before.scope));
        if (names) {
          for (const name of nodeNames(before)) removeFrom(names, name, before.id);
          if (names.size === 0) this.nodesByName.delete(tenantOf(before.scope));
        }
      }
      if (after) {
        this.nodeByKey.set(nodeKeyOf(after), after.id);
        const tenant = tenantOf(after.scope);
        let names = this.nodesByName.get(tenant);
        if (!names) {
          names = new Map();
          this.nodesByName.set(tenant, names);
        }
        for (const name of nodeNames(after)) addTo(names, name, after.id);
      }
    });

    this.edges.onChange((before, after) => {
      if (before) {
        removeFrom(this.edgesByNode, before.from, before.id);
        removeFrom(this.edgesByNode, before.to, before.id);
      }
      if (after) {
        addTo(this.edgesByNode, after.from, after.id);
        addTo(this.edgesByNode, after.to, after.id);
      }
    });
  }

  /** The episodes stored at the scopes a read at `reader` may see (before any other filter). */
  *visibleEpisodes(reader: Scope): Iterable<EpisodeRow> {
    const byScope = this.episodesByScope.get(tenantOf(reader));
    if (!byScope) return;
    for (const key of visibleScopeKeys(reader)) {
      const rows = byScope.get(key);
      if (rows) yield* rows.values();
    }
  }

  /** The same rows as `visibleEpisodes`, only those with `since <= occurredAt <= until`. */
  *visibleEpisodesBetween(reader: Scope, since?: number, until?: number): Iterable<EpisodeRow> {
    const timelines = this.episodeTimelines.get(tenantOf(reader));
    if (!timelines) return;
    for (const key of visibleScopeKeys(reader)) {
      const timeline = timelines.get(key);
      if (timeline) yield* timeline.between(since, until);
    }
  }

  nextAuditSeq(): number {
    this.auditSeq += 1;
    return this.auditSeq;
  }
}
