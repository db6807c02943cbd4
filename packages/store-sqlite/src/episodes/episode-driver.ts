import {
  conflict,
  type EpisodeDriver,
  type EpisodeRecord,
  type Metadata,
  notFound,
  type Scope,
  scopeColumns,
} from '@strata-memory/core/store';
import type { Runner } from '../database/session.ts';
import type { Statements } from '../database/statements.ts';
import { pageClauses, type SortColumn, toPage } from '../sql/cursor.ts';
import { fromJson, optional, toJson } from '../sql/json-columns.ts';
import {
  allOf,
  type Clause,
  exactScopeClause,
  inClause,
  type ScopeRow,
  scopeOfRow,
  visibleClause,
} from '../sql/scope-sql.ts';
import {
  decodeEmbedding,
  EPISODE_FROM,
  EPISODE_SELECT,
  type EpisodeRow,
  encodeEmbedding,
  euclideanNorm,
  type LoadedEpisodeRow,
  toEpisode,
} from './episode-rows.ts';
import { queryTerms, searchTextOf, termsMatchExpression, visibleScopeTokens } from './keyword-query.ts';
import { cosineUpperBound } from './quantised-vectors.ts';
import type { TermStatistics } from './term-statistics.ts';
import { isIndexable, MAX_K, type VectorIndex } from './vector-index.ts';

interface EpisodeFilter {
  scope: Scope;
  accessLevel?: number;
  status: readonly string[];
  since?: number;
  until?: number;
}

/** The read filter of list and both searches: visible, allowed, in a listed status, in the time window. */
function filterClause(filter: EpisodeFilter): Clause {
  return allOf(
    visibleClause(filter.scope, 'e'),
    inClause('e.status', filter.status),
    filter.accessLevel === undefined
      ? undefined
      : { sql: 'e.access_level <= ?', params: [filter.accessLevel] },
    filter.since === undefined ? undefined : { sql: 'e.occurred_at >= ?', params: [filter.since] },
    filter.until === undefined ? undefined : { sql: 'e.occurred_at <= ?', params: [filter.until] },
  );
}

/** What scoring a vector candidate reads: the row's key and its stored embedding. */
type ScoringRow = Pick<LoadedEpisodeRow, 'row_id' | 'id' | 'embedding_norm' | 'embedding'>;

/** Exact cosine similarity of the query with a row's stored float64 embedding (0 for a zero vector). */
function cosine(query: readonly number[], queryNorm: number, row: ScoringRow): number {
  if (row.embedding === null || !row.embedding_norm || queryNorm === 0) return 0;
  const embedding = decodeEmbedding(row.embedding);
  let dot = 0;
  for (let i = 0; i < query.length; i++) dot += query[i]! * embedding[i]!;
  return dot / (row.embedding_norm * queryNorm);
}

interface RankedRow {
  row_id: number;
  id: string;
  /** FTS5's bm25(): negative, lower is better. */
  rank: number;
}

/** Rows the vector search re-scores beyond `limit`, so float32 rounding in vec0 cannot drop a true top result. */
const VECTOR_MARGIN = 8;

/** Past this many matches tied at a keyword ranking's edge, the ranking joins the episodes table instead. */
const MAX_TIED = 2_000;

/**
 * Episodes: the row in `episodes`, its embedding in `episode_embeddings`, its text in the FTS5
 * index (kept in step by triggers) and its vector in the sqlite-vec index (kept in step here),
 * all written in the same transaction.
 *
 * Reads that rank or page first pick row ids with a query over the small episode rows only, then
 * load the chosen rows with their embeddings, so sorting never carries vectors around.
 */
export function episodeDriver(
  sql: Statements,
  run: Runner,
  vectors: VectorIndex,
  terms: TermStatistics,
): EpisodeDriver {
  /** Full rows for `rowIds` (those passing `filter`, when given), keyed by row id. */
  const load = (rowIds: readonly number[], filter?: Clause): Map<number, LoadedEpisodeRow> => {
    if (rowIds.length === 0) return new Map();
    const where = allOf(filter, inClause('e.row_id', rowIds));
    const rows = sql.all<LoadedEpisodeRow>(
      `SELECT ${EPISODE_SELECT} FROM ${EPISODE_FROM} WHERE ${where.sql}`,
      where.params,
    );
    return new Map(rows.map((row) => [row.row_id, row]));
  };

  /** What scoring reads of `rowIds` (those passing `filter`), keyed by row id. */
  const loadForScoring = (rowIds: readonly number[], filter?: Clause): Map<number, ScoringRow> => {
    if (rowIds.length === 0) return new Map();
    const where = allOf(filter, inClause('e.row_id', rowIds));
    const rows = sql.all<ScoringRow>(
      `SELECT e.row_id, e.id, e.embedding_norm, x.embedding FROM ${EPISODE_FROM} WHERE ${where.sql}`,
      where.params,
    );
    return new Map(rows.map((row) => [row.row_id, row]));
  };

  /**
   * What scoring reads of a coarse search's candidates that pass `filter`: enough of them to hold
   * the `limit` best by exact cosine among all that pass, or all of them. Candidates are read in
   * order of the highest cosine their quantised vectors allow, and reading stops once at least
   * `wanted` have passed and the `limit`-th best exact cosine so far is above every bound left
   * (the rows not read cannot make the answer, even by a tie).
   */
  const loadBounded = (
    candidates: readonly number[],
    filter: Clause,
    query: readonly number[],
    queryNorm: number,
    limit: number,
    wanted: number,
    minScore: number,
  ): { found: Map<number, ScoringRow>; ruledOut: number } => {
    const unit = Float64Array.from(query, (x) => x / queryNorm);
    const unitL1 = unit.reduce((sum, x) => sum + Math.abs(x), 0);
    const quantised = vectors.quantised.load(candidates);
    const bounded = candidates
      .map((rowId) => {
        const q = quantised.get(rowId);
        return { rowId, bound: q ? cosineUpperBound(q, unit, unitL1) : Number.POSITIVE_INFINITY };
      })
      .filter((c) => c.bound >= minScore)
      .sort((a, b) => b.bound - a.bound);
    const ruledOut = candidates.length - bounded.length;
    const found = new Map<number, ScoringRow>();
    const scores: number[] = [];
    let next = 0;
    for (let batch = wanted; next < bounded.length; batch = Math.ceil(wanted / 2)) {
      const rowIds = bounded.slice(next, next + batch).map((c) => c.rowId);
      next += rowIds.length;
      for (const [rowId, row] of loadForScoring(rowIds, filter)) {
        found.set(rowId, row);
        scores.push(cosine(query, queryNorm, row));
      }
      if (found.size < wanted || limit < 1 || next === bounded.length) continue;
      scores.sort((a, b) => b - a);
      if (scores[limit - 1]! > bounded[next]!.bound) break;
    }
    return { found, ruledOut };
  };

  /** Loads rows in the order of `rowIds`. */
  const loadInOrder = (rowIds: readonly number[]): LoadedEpisodeRow[] => {
    const byId = load(rowIds);
    return rowIds.map((rowId) => byId.get(rowId)!);
  };

  /**
   * Keyword ranking by the index alone: FTS5 ranks the rows matching `match` (whose scope tokens
   * already confine it to the reader's scopes) without touching the episodes table, and only the
   * best `limit + margin` are checked against the full filter (status, time, access level).
   * When a tie in rank reaches past those candidates (ties go by id, which the index does not
   * know), every match ranked at or above the tie is read from the index, and the filter orders
   * them all. `exact` is false when fewer than `limit` candidates pass the filter while the index
   * holds more matches, or when the tie holds more rows than one filter statement should list.
   */
  const rankInIndex = (
    match: string,
    where: Clause,
    limit: number,
  ): { rows: RankedRow[]; exact: boolean } => {
    const wanted = limit + Math.max(limit, 16);
    const candidates = sql.all<{ rowid: number; rank: number }>(
      `SELECT rowid, bm25(episodes_fts, 1.0, 0.0) AS rank FROM episodes_fts
        WHERE episodes_fts MATCH ? ORDER BY rank LIMIT ?`,
      [match, wanted],
    );
    if (candidates.length === 0) return { rows: [], exact: true };
    const rows = bestPassing(candidates, where, limit);
    const complete = candidates.length < wanted;
    const edge = candidates[candidates.length - 1]!.rank;
    if (complete || rows.length < limit || rows[limit - 1]!.rank !== edge) {
      return { rows, exact: rows.length === limit || complete };
    }
    const tied = sql.all<{ rowid: number; rank: number }>(
      `SELECT rowid, bm25(episodes_fts, 1.0, 0.0) AS rank FROM episodes_fts
        WHERE episodes_fts MATCH ? AND bm25(episodes_fts, 1.0, 0.0) <= ?`,
      [match, edge],
    );
    if (tied.length > MAX_TIED) return { rows, exact: false };
    return { rows: bestPassing(tied, where, limit), exact: true };
  };

  /** The `limit` best of the index's `candidates` that pass `where`, by rank then id. */
  const bestPassing = (
    candidates: ReadonlyArray<{ rowid: number; rank: number }>,
    where: Clause,
    limit: number,
  ): RankedRow[] => {
    const rankOf = new Map(candidates.map((c) => [c.rowid, c.rank]));
    const filter = allOf(
      where,
      inClause(
        'e.row_id',
        candidates.map((c) => c.rowid),
      ),
    );
    return sql
      .all<{ row_id: number; id: string }>(
        `SELECT e.row_id, e.id FROM episodes e WHERE ${filter.sql}`,
        filter.params,
      )
      .map((row) => ({ row_id: row.row_id, id: row.id, rank: rankOf.get(row.row_id)! }))
      .sort((a, b) => a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit);
  };

  /** Keyword ranking joined with the episodes table: exact in every case, slower on many matches. */
  const rankJoined = (match: string, where: Clause, limit: number): RankedRow[] =>
    sql.all<RankedRow>(
      `SELECT e.row_id, e.id, bm25(episodes_fts, 1.0, 0.0) AS rank
         FROM episodes_fts JOIN episodes e ON e.row_id = episodes_fts.rowid
        WHERE episodes_fts MATCH ? AND ${where.sql}
        ORDER BY rank ASC, e.id ASC
        LIMIT ?`,
      [match, ...where.params, limit],
    );

  const visibleRows = (scope: Scope, ids: readonly string[], extra?: Clause): EpisodeRow[] => {
    if (ids.length === 0) return [];
    const where = allOf(visibleClause(scope, 'e'), inClause('e.id', ids), extra);
    return sql.all<EpisodeRow>(`SELECT e.* FROM episodes e WHERE ${where.sql}`, where.params);
  };

  const visibleRow = (scope: Scope, id: string): EpisodeRow => {
    const row = visibleRows(scope, [id])[0];
    if (!row) throw notFound('episode', id);
    return row;
  };

  const insert = (episode: Parameters<EpisodeDriver['put']>[0]['episodes'][number]): EpisodeRecord => {
    const c = scopeColumns(episode.scope);
    const embedding = episode.embedding;
    const norm = embedding ? euclideanNorm(embedding) : null;
    const { lastInsertRowid: rowId } = sql.run(
      `INSERT INTO episodes (id, tenant, org_id, user_id, agent_id, thread_id, text, search_text, role, speaker,
         occurred_at, created_at, importance, access_count, last_accessed_at, dimensions, embedding_norm,
         content_hash, status, merged_into, access_level, provenance, metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        episode.id,
        c.tenant,
        c.org,
        c.user,
        c.agent,
        c.thread,
        episode.text,
        optional(searchTextOf(episode.text)),
        optional(episode.role),
        optional(episode.speaker),
        episode.occurredAt,
        episode.createdAt,
        episode.importance,
        episode.accessCount,
        optional(episode.lastAccessedAt),
        embedding ? embedding.length : null,
        norm,
        episode.contentHash,
        episode.status,
        optional(episode.mergedInto),
        episode.accessLevel,
        toJson(episode.provenance),
        toJson(episode.metadata),
      ],
    );
    if (embedding && norm !== null) {
      sql.run('INSERT INTO episode_embeddings (row_id, embedding) VALUES (?, ?)', [
        rowId,
        encodeEmbedding(embedding),
      ]);
      vectors.add({
        rowId,
        scope: episode.scope,
        status: episode.status,
        accessLevel: episode.accessLevel,
        occurredAt: episode.occurredAt,
        vector: embedding,
        norm,
      });
    }
    const record: EpisodeRecord = { ...episode };
    for (const key of Object.keys(record) as Array<keyof EpisodeRecord>) {
      if (record[key] === undefined) delete record[key];
    }
    return record;
  };

  return {
    put: ({ episodes }) =>
      run.write(() => {
        const ids = new Set<string>();
        for (const episode of episodes) {
          if (ids.has(episode.id))
            throw conflict(`episode "${episode.id}" already exists`, { id: episode.id });
          ids.add(episode.id);
        }
        const taken = sql.get<{ id: string }>(
          `SELECT id FROM episodes WHERE ${inClause('id', [...ids]).sql} LIMIT 1`,
          [...ids],
        );
        if (taken) throw conflict(`episode "${taken.id}" already exists`, { id: taken.id });
        return episodes.map(insert);
      }),

    get: ({ scope, ids, accessLevel }) =>
      run.read(() => {
        const unique = [...new Set(ids)];
        const access =
          accessLevel === undefined ? undefined : { sql: 'e.access_level <= ?', params: [accessLevel] };
        const rowIds = new Map(visibleRows(scope, unique, access).map((row) => [row.id, row.row_id]));
        const loaded = load([...rowIds.values()]);
        return unique.flatMap((id) => {
          const rowId = rowIds.get(id);
          return rowId === undefined ? [] : [toEpisode(loaded.get(rowId)!)];
        });
      }),

    list: (args) =>
      run.read(() => {
        const order: SortColumn[] = [
          { expr: 'e.occurred_at', direction: args.order },
          { expr: 'e.id', direction: args.order },
        ];
        const page = { listing: 'episodes', columns: order, limit: args.limit, cursor: args.cursor };
        const { after, orderBy, limit } = pageClauses(page);
        const where = allOf(filterClause(args), after);
        const keys = sql.all<{ row_id: number; occurred_at: number; id: string }>(
          `SELECT e.row_id, e.occurred_at, e.id FROM episodes e WHERE ${where.sql} ORDER BY ${orderBy} LIMIT ?`,
          [...where.params, limit],
        );
        const loaded = load(keys.slice(0, args.limit).map((k) => k.row_id));
        return toPage(
          page,
          keys,
          (k) => [k.occurred_at, k.id],
          (k) => toEpisode(loaded.get(k.row_id)!),
        );
      }),

    count: ({ scope, status }) =>
      run.read(() => {
        const where = allOf(visibleClause(scope, 'e'), inClause('e.status', status));
        return sql.get<{ n: number }>(
          `SELECT count(*) AS n FROM episodes e WHERE ${where.sql}`,
          where.params,
        )!.n;
      }),

    searchKeyword: (args) =>
      run.read(() => {
        const words = queryTerms(args.query);
        if (words.length === 0) return [];
        const where = filterClause(args);
        // When the reader's scopes hold the whole index (one tenant), matching their scope tokens
        // only makes FTS5 read one more long doclist per row: match the words alone (the filter
        // checks scopes; counts gone stale at worst make a search fall back to the joined one).
        const scope = terms.coversIndex(visibleScopeTokens(args.scope)) ? undefined : args.scope;
        const match = termsMatchExpression(words, scope);
        let ranked: RankedRow[] | undefined;
        // Words in most episodes weigh next to nothing in BM25 but make FTS5 rank most of the
        // reader's episodes: search without them first (see TermStatistics). That answer stands
        // when it fills the page; otherwise episodes holding only those words may be missing.
        const common = terms.commonWords(words);
        if (common.size > 0) {
          const rare = words.filter((word) => !common.has(word));
          const pruned = rankInIndex(termsMatchExpression(rare, scope), where, args.limit);
          if (pruned.exact && pruned.rows.length === args.limit) ranked = pruned.rows;
        }
        if (!ranked) {
          const full = rankInIndex(match, where, args.limit);
          if (full.exact) ranked = full.rows;
        }
        ranked ??= rankJoined(match, where, args.limit);
        const rows = loadInOrder(ranked.map((r) => r.row_id));
        return rows.map((row, i) => ({ episode: toEpisode(row), score: -ranked[i]!.rank }));
      }),

    searchVector: (args) =>
      run.read(() => {
        const query = args.vector;
        const dimensions = query.length;
        const queryNorm = euclideanNorm(query);
        const filter = allOf(filterClause(args), { sql: 'e.dimensions = ?', params: [dimensions] });

        if (!(queryNorm > 0) || !Number.isFinite(queryNorm)) {
          // A zero query has no direction: every candidate scores 0, so ties go by id.
          if ((args.minScore ?? 0) > 0) return [];
          const rowIds = sql
            .all<{ row_id: number }>(
              `SELECT e.row_id FROM episodes e WHERE ${filter.sql} ORDER BY e.id LIMIT ?`,
              [...filter.params, args.limit],
            )
            .map((r) => r.row_id);
          return loadInOrder(rowIds).map((row) => ({ episode: toEpisode(row), score: 0 }));
        }

        const partitions = vectors.visiblePartitions(dimensions, args.scope);
        const wanted = args.limit + VECTOR_MARGIN;
        // Past `exactLimit` vectors in the reader's scopes, the search goes through sign bits for
        // `oversampling` times the rows wanted, and those are re-ranked below by exact cosine.
        const coarse = partitions.vectors > vectors.options.exactLimit;
        let k = coarse ? wanted * vectors.options.oversampling : wanted;
        // Candidates are loaded with the SQL filter applied, in the same statement: one probe per
        // candidate. A coarse search's many candidates are loaded for scoring only (key and
        // embedding), and only those their quantised vectors do not rule out (see loadBounded),
        // then whole rows for the winners; an exact search's whole rows at once.
        const loadCandidates = coarse ? loadForScoring : load;
        let found = new Map<number, ScoringRow>();
        // Candidates whose quantised vector cannot reach `minScore` are never read.
        const minScore = args.minScore ?? Number.NEGATIVE_INFINITY;
        let ruledOut = 0;
        // Without a time window nearly every row passes the filter: a coarse search first ranks
        // the packed codes, unfiltered (see VectorIndex).
        let filterInIndex = !coarse || args.since !== undefined || args.until !== undefined;
        for (;;) {
          const neighbours = vectors.search({
            dimensions,
            partitions: partitions.keys,
            statuses: args.status,
            accessLevel: args.accessLevel,
            since: args.since,
            until: args.until,
            vector: query,
            k,
            coarse,
            filterInIndex,
          });
          if (coarse) {
            ({ found, ruledOut } = loadBounded(
              neighbours,
              filter,
              query,
              queryNorm,
              args.limit,
              wanted,
              minScore,
            ));
          } else found = load(neighbours, filter);
          if (found.size + ruledOut >= wanted || neighbours.length < k) break;
          // A coarse search ranks codes without the filter: when rows failed it, search again
          // inside vec0 with the filter columns. Past that, the filter columns mirror the SQL
          // filter, so rows fall out only on a hash collision: ask for more.
          if (!filterInIndex) {
            filterInIndex = true;
            continue;
          }
          if (k >= MAX_K) break;
          k = Math.min(k * 4, MAX_K);
        }

        // Embeddings that are all zeros are not in the vector index; their cosine with anything is 0.
        const zero = allOf(filter, { sql: 'e.embedding_norm = 0', params: [] });
        const zeroIds = sql
          .all<{ row_id: number }>(
            `SELECT e.row_id FROM episodes e WHERE ${zero.sql} ORDER BY e.id LIMIT ?`,
            [...zero.params, args.limit],
          )
          .map((r) => r.row_id);

        // Score every candidate from its raw bytes, then build records for the winners only.
        for (const [rowId, row] of loadCandidates(zeroIds)) found.set(rowId, row);
        const scored = [...found.values()]
          .map((row) => ({ row, score: cosine(query, queryNorm, row) }))
          .filter(({ score }) => score >= minScore);
        scored.sort((a, b) => b.score - a.score || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0));
        const winners = scored.slice(0, args.limit);
        const rows = coarse
          ? loadInOrder(winners.map(({ row }) => row.row_id))
          : winners.map(({ row }) => row as LoadedEpisodeRow);
        return winners.map(({ score }, i) => ({ episode: toEpisode(rows[i]!), score }));
      }),

    findByHash: ({ scope, contentHashes }) =>
      run.read(() => {
        if (contentHashes.length === 0) return [];
        const where = allOf(
          exactScopeClause(scope, 'e'),
          { sql: "e.status = 'active'", params: [] },
          inClause('e.content_hash', [...new Set(contentHashes)]),
        );
        // By hash, whatever the planner's statistics say: until a connection has analysed the
        // table (a new file), it would walk the scope index, every episode of the scope per call.
        const rowIds = sql
          .all<{ row_id: number }>(
            `SELECT e.row_id FROM episodes e INDEXED BY episodes_by_hash WHERE ${where.sql} ORDER BY e.created_at, e.id`,
            where.params,
          )
          .map((r) => r.row_id);
        return loadInOrder(rowIds).map(toEpisode);
      }),

    update: ({ scope, id, patch }) =>
      run.write(() => {
        const row = visibleRow(scope, id);
        const next: EpisodeRow = {
          ...row,
          importance: patch.importance ?? row.importance,
          status: patch.status ?? row.status,
          merged_into: patch.mergedInto ?? row.merged_into,
          access_count: patch.accessCount ?? row.access_count,
          last_accessed_at: patch.lastAccessedAt ?? row.last_accessed_at,
          occurred_at: patch.occurredAt ?? row.occurred_at,
          metadata:
            patch.metadata === undefined
              ? row.metadata
              : toJson({ ...fromJson<Metadata>(row.metadata), ...patch.metadata }),
        };
        sql.run(
          `UPDATE episodes SET importance = ?, status = ?, merged_into = ?, access_count = ?, last_accessed_at = ?,
             occurred_at = ?, metadata = ? WHERE row_id = ?`,
          [
            next.importance,
            next.status,
            next.merged_into,
            next.access_count,
            next.last_accessed_at,
            next.occurred_at,
            next.metadata,
            row.row_id,
          ],
        );
        const moved = next.status !== row.status || next.occurred_at !== row.occurred_at;
        if (row.dimensions !== null && isIndexable(row.embedding_norm) && moved) {
          vectors.update(row.dimensions, row.row_id, { status: next.status, occurredAt: next.occurred_at });
        }
        return toEpisode(load([row.row_id]).get(row.row_id)!);
      }),

    recordAccess: ({ scope, ids, at }) =>
      run.write(() => {
        const unique = [...new Set(ids)];
        if (unique.length === 0) return;
        const where = allOf(visibleClause(scope), inClause('id', unique));
        sql.run(
          `UPDATE episodes SET access_count = access_count + 1, last_accessed_at = ? WHERE ${where.sql}`,
          [at, ...where.params],
        );
      }),

    delete: ({ scope, ids }) =>
      run.write(() => {
        const rows = visibleRows(scope, [...new Set(ids)]);
        deleteEpisodeRows(sql, vectors, rows);
        return { deleted: rows.length };
      }),
  };
}

/**
 * Deletes episodes by row, with their vectors; the embedding goes by cascade and the FTS index
 * follows through its trigger.
 */
export function deleteEpisodeRows(
  sql: Statements,
  vectors: VectorIndex,
  rows: ReadonlyArray<Pick<EpisodeRow, 'row_id' | keyof ScopeRow | 'dimensions' | 'embedding_norm'>>,
): void {
  const bySize = new Map<number, Array<{ rowId: number; scope: Scope }>>();
  for (const row of rows) {
    if (row.dimensions === null || !isIndexable(row.embedding_norm)) continue;
    const list = bySize.get(row.dimensions) ?? [];
    list.push({ rowId: row.row_id, scope: scopeOfRow(row) });
    bySize.set(row.dimensions, list);
  }
  for (const [dimensions, indexed] of bySize) vectors.remove(dimensions, indexed);
  for (const row of rows) sql.run('DELETE FROM episodes WHERE row_id = ?', [row.row_id]);
}
