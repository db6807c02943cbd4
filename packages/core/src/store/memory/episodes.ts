import { conflict, notFound } from '../../errors/strata-error.ts';
import { isVisible, type Scope, tenantOf } from '../../scope/scope.ts';
import type { EpisodeDriver, ScoredEpisode } from '../contract.ts';
import type { EpisodeRecord, EpisodeStatus } from '../records.ts';
import { paginate } from './pagination.ts';
import { compact } from './records-copy.ts';
import { exactScopeKey, visibleScopeKeys } from './row-keys.ts';
import type { SyncSubStore } from './sync-sub-store.ts';
import type { EpisodeRow, MemoryTables } from './tables.ts';
import { TopK, topK } from './top-k.ts';
import { readable } from './visibility.ts';

interface EpisodeFilter {
  scope: Scope;
  accessLevel?: number;
  status: EpisodeStatus[];
  since?: number;
  until?: number;
}

/**
 * The filter list, count and both searches apply to the episodes of the reader's visible scopes
 * (`MemoryTables.visibleEpisodes` and the keyword index's partitions enforce visibility): allowed,
 * in a listed status, in the time window.
 */
function matcher(filter: Omit<EpisodeFilter, 'scope'>): (record: EpisodeRecord) => boolean {
  const statuses = new Set(filter.status);
  const { accessLevel, since, until } = filter;
  return (record) =>
    statuses.has(record.status) &&
    (since === undefined || record.occurredAt >= since) &&
    (until === undefined || record.occurredAt <= until) &&
    (accessLevel === undefined || record.accessLevel <= accessLevel);
}

function normOf(vector: readonly number[] | undefined): number {
  if (!vector) return 0;
  let sum = 0;
  for (const x of vector) sum += x * x;
  return Math.sqrt(sum);
}

/** Dot product of two vectors of the same length, four lanes at a time. */
function dot(a: readonly number[], b: readonly number[]): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const n = a.length;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += a[i]! * b[i]!;
    s1 += a[i + 1]! * b[i + 1]!;
    s2 += a[i + 2]! * b[i + 2]!;
    s3 += a[i + 3]! * b[i + 3]!;
  }
  for (; i < n; i++) s0 += a[i]! * b[i]!;
  return s0 + s1 + s2 + s3;
}

export function episodeSubStore(tables: MemoryTables): SyncSubStore<EpisodeDriver> {
  const visibleRow = (scope: Scope, id: string): EpisodeRow | undefined => {
    const row = tables.episodes.get(id);
    return row && isVisible(row.record.scope, scope) ? row : undefined;
  };
  const save = (record: EpisodeRecord) =>
    tables.episodes.set(record.id, { record, norm: normOf(record.embedding) });

  return {
    put({ episodes }) {
      const ids = new Set<string>();
      for (const episode of episodes) {
        if (ids.has(episode.id) || tables.episodes.has(episode.id)) {
          throw conflict(`episode "${episode.id}" already exists`, { id: episode.id });
        }
        ids.add(episode.id);
      }
      return episodes.map((episode) => {
        const record = compact(episode) as EpisodeRecord;
        save(record);
        return record;
      });
    },

    get({ scope, ids, accessLevel }) {
      const out: EpisodeRecord[] = [];
      for (const id of new Set(ids)) {
        const row = tables.episodes.get(id);
        if (row && readable(row.record, scope, accessLevel)) out.push(row.record);
      }
      return out;
    },

    list(args) {
      const accept = matcher(args);
      const items: EpisodeRecord[] = [];
      for (const row of tables.visibleEpisodesBetween(args.scope, args.since, args.until)) {
        if (accept(row.record)) items.push(row.record);
      }
      return paginate({
        listing: 'episodes',
        items,
        keyOf: (e) => [e.occurredAt, e.id],
        directions: [args.order, args.order],
        limit: args.limit,
        cursor: args.cursor,
      });
    },

    count({ scope, status }) {
      const accept = matcher({ status });
      let count = 0;
      for (const row of tables.visibleEpisodes(scope)) if (accept(row.record)) count += 1;
      return count;
    },

    searchKeyword(args) {
      const index = tables.keywordIndexes.get(tenantOf(args.scope));
      if (!index) return [];
      const accept = matcher(args);
      const hits = index.score(
        args.query,
        (id) => accept(tables.episodes.get(id)!.record),
        visibleScopeKeys(args.scope),
      );
      return topK(hits, args.limit).map(({ id, score }) => ({
        episode: tables.episodes.get(id)!.record,
        score,
      }));
    },

    searchVector(args) {
      const accept = matcher(args);
      const query = args.vector;
      const queryNorm = normOf(query);
      const dimensions = query.length;
      const best = new TopK<{ id: string; score: number; record: EpisodeRecord }>(args.limit);
      for (const row of tables.visibleEpisodes(args.scope)) {
        const record = row.record;
        const embedding = record.embedding;
        if (!embedding || embedding.length !== dimensions || !accept(record)) continue;
        const score = row.norm === 0 || queryNorm === 0 ? 0 : dot(query, embedding) / (row.norm * queryNorm);
        if (args.minScore !== undefined && score < args.minScore) continue;
        if (best.admits(score, record.id)) best.offer({ id: record.id, score, record });
      }
      return best.sorted().map(({ record, score }): ScoredEpisode => ({ episode: record, score }));
    },

    findByHash({ scope, contentHashes }) {
      const hashes = new Set(contentHashes);
      const out: EpisodeRecord[] = [];
      const rows = tables.episodesByScope.get(tenantOf(scope))?.get(exactScopeKey(scope))?.values() ?? [];
      for (const row of rows) {
        const record = row.record;
        if (record.status === 'active' && hashes.has(record.contentHash)) {
          out.push(record);
        }
      }
      return out.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    },

    update({ scope, id, patch }) {
      const row = visibleRow(scope, id);
      if (!row) throw notFound('episode', id);
      const { metadata, ...fields } = compact(patch);
      const record: EpisodeRecord = { ...row.record, ...fields };
      if (metadata !== undefined) record.metadata = { ...row.record.metadata, ...metadata };
      save(record);
      return record;
    },

    recordAccess({ scope, ids, at }) {
      for (const id of new Set(ids)) {
        const row = visibleRow(scope, id);
        if (!row) continue;
        save({ ...row.record, accessCount: row.record.accessCount + 1, lastAccessedAt: at });
      }
    },

    delete({ scope, ids }) {
      let deleted = 0;
      for (const id of new Set(ids)) {
        if (visibleRow(scope, id) && tables.episodes.delete(id)) deleted += 1;
      }
      return { deleted };
    },
  };
}
