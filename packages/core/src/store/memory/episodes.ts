import { conflict, notFound } from '../../errors/strata-error.ts';
import { isVisible, type Scope, sameScope, tenantOf } from '../../scope/scope.ts';
import type { EpisodeDriver, ScoredEpisode } from '../contract.ts';
import type { EpisodeRecord, EpisodeStatus } from '../records.ts';
import { paginate } from './pagination.ts';
import { compact } from './records-copy.ts';
import type { SyncSubStore } from './sync-sub-store.ts';
import type { EpisodeRow, MemoryTables } from './tables.ts';
import { topK } from './top-k.ts';
import { readable } from './visibility.ts';

interface EpisodeFilter {
  scope: Scope;
  accessLevel?: number;
  status: EpisodeStatus[];
  since?: number;
  until?: number;
}

/** The filter shared by list and both searches: visible, allowed, in a listed status, in the time window. */
function matcher(filter: EpisodeFilter): (record: EpisodeRecord) => boolean {
  const statuses = new Set(filter.status);
  return (record) =>
    statuses.has(record.status) &&
    (filter.since === undefined || record.occurredAt >= filter.since) &&
    (filter.until === undefined || record.occurredAt <= filter.until) &&
    readable(record, filter.scope, filter.accessLevel);
}

function normOf(vector: readonly number[] | undefined): number {
  if (!vector) return 0;
  let sum = 0;
  for (const x of vector) sum += x * x;
  return Math.sqrt(sum);
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
      for (const row of tables.episodes.tenantRows(tenantOf(args.scope))) {
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
      const accept = matcher({ scope, status });
      let count = 0;
      for (const row of tables.episodes.tenantRows(tenantOf(scope))) if (accept(row.record)) count += 1;
      return count;
    },

    searchKeyword(args) {
      const index = tables.keywordIndexes.get(tenantOf(args.scope));
      if (!index) return [];
      const accept = matcher(args);
      const hits = index.score(args.query, (id) => accept(tables.episodes.get(id)!.record));
      return topK(hits, args.limit).map(({ id, score }) => ({
        episode: tables.episodes.get(id)!.record,
        score,
      }));
    },

    searchVector(args) {
      const accept = matcher(args);
      const query = args.vector;
      const queryNorm = normOf(query);
      const candidates = function* (): Iterable<{ id: string; score: number; record: EpisodeRecord }> {
        for (const row of tables.episodes.tenantRows(tenantOf(args.scope))) {
          const embedding = row.record.embedding;
          if (!embedding || embedding.length !== query.length || !accept(row.record)) continue;
          let dot = 0;
          for (let i = 0; i < query.length; i++) dot += query[i]! * embedding[i]!;
          const score = row.norm === 0 || queryNorm === 0 ? 0 : dot / (row.norm * queryNorm);
          yield { id: row.record.id, score, record: row.record };
        }
      };
      return topK(candidates(), args.limit).map(
        ({ record, score }): ScoredEpisode => ({ episode: record, score }),
      );
    },

    findByHash({ scope, contentHashes }) {
      const hashes = new Set(contentHashes);
      const out: EpisodeRecord[] = [];
      for (const row of tables.episodes.tenantRows(tenantOf(scope))) {
        const record = row.record;
        if (record.status === 'active' && hashes.has(record.contentHash) && sameScope(record.scope, scope)) {
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
