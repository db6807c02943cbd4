import {
  conflict,
  cosine,
  type EpisodeDriver,
  type EpisodeRecord,
  type EpisodeStatus,
  notFound,
  type Scope,
  type ScoredEpisode,
  tenantOf,
  visibleScopeRows,
} from '@strata-memory/core/store';
import type { SchemaNames } from '../schema/migrations.ts';
import { vectorsAddedSql, vectorsChangedSql, vectorsRemovedSql } from '../search/episode-vectors.ts';
import { postingsAddedSql, postingsChangedSql, postingsRemovedSql } from '../search/keyword-postings.ts';
import { emptyTermsRemovedSql, keywordChangesSql, lexemesOfSql } from '../search/keyword-stats.ts';
import { scopedSearchSql, visibleScopesQuerySql } from '../search/scoped-search.ts';
import { anyTermQuery, documentVector, queryTerms } from '../search/tsvector.ts';
import { exactBoundSql, vectorCountChangesSql, visibleVectorCountSql } from '../search/vector-counts.ts';
import {
  indexedVectorSql,
  MAX_HNSW_DIMENSIONS,
  partitionEntriesSql,
  type VectorIndexes,
} from '../search/vector-indexes.ts';
import { vectorLiteral } from '../search/vector-literal.ts';
import { decodeCursor, encodeCursor, pageOf } from '../sql/cursor.ts';
import { Params } from '../sql/params.ts';
import {
  accessSql,
  exactScopeSql,
  SCOPE_COLUMN_LIST,
  scopeValuesSql,
  visibleByIdSql,
  visibleSql,
  visibleUsers,
} from '../sql/scope-filter.ts';
import type { Database } from './database.ts';
import { decodeFloat8Base64, encodeFloat8Bytes } from './float8-bytes.ts';
import type { PlannerStatistics } from './planner-statistics.ts';
import { compact, int, metadataOf, optionalInt, optionalText, type ScopeRow, scopeOfRow } from './rows.ts';
import { tickBatcher } from './tick-batch.ts';

export interface EpisodeSearchOptions {
  /** How keyword matches are scored: BM25 over the tenant's episodes, or PostgreSQL's `ts_rank_cd`. */
  keywordRanking: 'bm25' | 'ts_rank_cd';
  /** `ts_rank_cd` normalization bits (see PostgreSQL's "Ranking Search Results"). */
  rankNormalization: number;
  /**
   * A vector search whose visible scopes hold at most this many episodes of its size is answered
   * exactly (every distance computed) instead of through the HNSW index; in a big index, more
   * (see `exactBoundSql`). 0: every search walks the index.
   */
  exactSearchBelow: number;
  /**
   * How many index entries one HNSW walk may visit while looking for rows that pass the filters
   * (pgvector's `hnsw.max_scan_tuples`); when it stops short, the exact query answers instead.
   */
  hnswMaxScanTuples: number;
  /**
   * BM25's common terms: in a tenant of at least `commonTermsFrom` episodes, a query term found in
   * more than this share of them only adds to the score of episodes holding a rarer query term
   * (when there is one), instead of making every episode holding it a candidate.
   */
  commonTermCutoff: number;
  /** The fewest episodes a tenant holds for `commonTermCutoff` to apply. */
  commonTermsFrom: number;
}

interface EpisodeRow extends ScopeRow {
  id: string;
  text: string;
  role: EpisodeRecord['role'] | null;
  speaker: string | null;
  occurred_at: unknown;
  created_at: unknown;
  importance: number;
  access_count: number;
  last_accessed_at: unknown;
  embedding_f8: unknown;
  content_hash: string;
  status: EpisodeStatus;
  merged_into: string | null;
  access_level: number;
  provenance: unknown;
  metadata: unknown;
}

interface ScoredRow extends EpisodeRow {
  score: number;
}

/** The stored columns, in the order an INSERT lists them (before dims, search and doc_length). */
const STORED_COLUMNS = `${SCOPE_COLUMN_LIST}, id, text, role, speaker, occurred_at, created_at, importance, access_count,
  last_accessed_at, embedding_f8, embedding_f4, content_hash, status, merged_into, access_level, provenance, metadata`;

/**
 * The columns a record is read from, `alias`-qualified. The float64 embedding is a `bytea` of its
 * raw big-endian values; with `encoded`, it is sent as `encode(…, 'base64')` and decoded with
 * `decodeFloat8Base64`. Selected as it is, the text protocol sends it in hex: twice its bytes, and
 * Node took about three times as long to parse 200 rows' hex as their base64 (1.9-2.7 against
 * 0.7-0.9 ms for 384 dimensions). The encoding detoasts the value, so it belongs only in the
 * statement's outermost list, over rows already cut to those returned: beneath a sort or a merge it
 * would run for every row they read (`SELECT … ORDER BY … LIMIT` evaluates its list before the
 * sort). Until schema version 5 the embedding was a float8[] read through `array_send`, which the
 * server builds element by element, 1.5-1.8 ms slower for 60 rows.
 */
function selectColumns(alias: string | undefined, encoded: boolean): string {
  const c = (name: string) => (alias ? `${alias}.${name}` : name);
  const embedding = encoded ? `encode(${c('embedding_f8')}, 'base64') AS embedding_f8` : c('embedding_f8');
  return `${SCOPE_COLUMN_LIST.split(', ').map(c).join(', ')}, ${c('id')}, ${c('text')}, ${c('role')}, ${c('speaker')},
    ${c('occurred_at')}, ${c('created_at')}, ${c('importance')}, ${c('access_count')}, ${c('last_accessed_at')},
    ${embedding}, ${c('content_hash')}, ${c('status')}, ${c('merged_into')},
    ${c('access_level')}, ${c('provenance')}, ${c('metadata')}`;
}

/** A record's columns, for a statement's outermost list. */
const COLUMNS = selectColumns(undefined, true);
const QUALIFIED_COLUMNS = selectColumns('e', true);

function episodeOf(row: EpisodeRow): EpisodeRecord {
  return compact({
    id: row.id,
    scope: scopeOfRow(row),
    text: row.text,
    role: row.role ?? undefined,
    speaker: optionalText(row.speaker),
    occurredAt: int(row.occurred_at),
    createdAt: int(row.created_at),
    importance: Number(row.importance),
    accessCount: Number(row.access_count),
    lastAccessedAt: optionalInt(row.last_accessed_at),
    embedding: row.embedding_f8 === null ? undefined : decodeFloat8Base64(row.embedding_f8),
    contentHash: row.content_hash,
    status: row.status,
    mergedInto: optionalText(row.merged_into),
    accessLevel: Number(row.access_level),
    provenance: row.provenance as EpisodeRecord['provenance'],
    metadata: metadataOf(row.metadata),
  });
}

interface SearchFilter {
  scope: Scope;
  accessLevel?: number;
  status: EpisodeStatus[];
  since?: number;
  until?: number;
}

/** The filter list and both searches share: visible, allowed, in a listed status, in the time window. */
function filterSql(filter: SearchFilter, p: Params, alias?: string): string {
  return `${visibleSql(filter.scope, p, alias)} AND ${rowFilterSql(filter, p, alias)}`;
}

/** The filter's conditions on the row itself (status, access level, time), scope aside. */
function rowFilterSql(filter: SearchFilter, p: Params, alias?: string): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  const parts = [`${column('status')} = ANY(${p.texts(filter.status)})`];
  parts.push(...accessSql(filter.accessLevel, p, alias));
  if (filter.since !== undefined) parts.push(`${column('occurred_at')} >= ${p.add(filter.since)}`);
  if (filter.until !== undefined) parts.push(`${column('occurred_at')} <= ${p.add(filter.until)}`);
  return parts.join(' AND ');
}

function scored(rows: ScoredRow[]): ScoredEpisode[] {
  return rows.map((row) => ({ episode: episodeOf(row), score: Number(row.score) }));
}

/**
 * Nearest rows (found by pgvector's float4 distance) scored with the exact cosine of the stored
 * float64 embedding, best first, ties to the lower id: the scores every driver reports.
 */
function cosineScored(rows: EpisodeRow[], query: readonly number[]): ScoredEpisode[] {
  return rows
    .map((row) => {
      const episode = episodeOf(row);
      return { episode, score: cosine(query, episode.embedding ?? []) };
    })
    .sort(
      (a, b) => b.score - a.score || (a.episode.id < b.episode.id ? -1 : a.episode.id > b.episode.id ? 1 : 0),
    );
}

/** The most tenants a store remembers as large (see `searchKeyword`). */
const MAX_REMEMBERED = 10_000;

/** PostgreSQL's unique_violation: an episode id already taken. */
const UNIQUE_VIOLATION = '23505';

/** BM25 parameters, the same as the in-memory store's and SQLite FTS5's. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/**
 * A common term next to rarer ones is read whole, not looked up per candidate, while it is in at
 * most this many times as many of the tenant's episodes as the rarer terms together (their sum
 * bounds the candidates). Reading a posting in an index range and keeping it when its episode is
 * a candidate cost 0.5-0.7 µs, a primary-key lookup 5.5-9 µs (EXPLAIN ANALYZE on a 2 vCPU AMD
 * EPYC host, PostgreSQL 15, postings in memory).
 */
export const COMMON_TERM_READ_RATIO = 16;

/** When BM25 treats a query term as common (see `EpisodeSearchOptions.commonTermCutoff`). */
interface CommonTerms {
  cutoff: number;
  from: number;
}

/**
 * BM25 over the reader's episodes holding any of the query's `terms`, in one statement, scored as
 * the in-memory reference store scores them: the collection statistics (episode count, average
 * length, each term's document frequency) are those of every episode of the reader's tenant (any
 * scope, any status: one tenant's data never changes another's scores), read from `keyword_stats`
 * and `keyword_terms`, which every write keeps up to date. Term frequencies and lengths come from
 * the postings of the reader's scopes, filtered in the index (status, time, access level), so only
 * the winners' episode rows are read. Each (term, visible scope) pair is one equality probe of the
 * postings' primary key (the lateral subquery's `OFFSET 0` keeps the planner from turning the
 * probes into a join over every posting of the term in the tenant, which its estimates favour).
 *
 * Common terms (Lucene's CommonTermsQuery): in a tenant of at least `common.from` episodes, a
 * term found in more than `common.cutoff` of them is common. When the query has a rarer term, the
 * candidates are the episodes holding a rarer term, and each common term adds its part of their
 * score: every episode returned still gets its whole BM25 score, but an episode holding only
 * common terms is not a candidate. A common term's parts are read whichever way costs less, by
 * the tenant's document frequencies: its postings in the reader's scopes, kept where they belong
 * to a candidate, while it is in at most `COMMON_TERM_READ_RATIO` times as many episodes as the
 * rarer terms together (their sum bounds the candidates); past that, one primary-key lookup per
 * candidate (the candidate's scope and id are the rest of the key). When every term is common,
 * all their postings are read, as without the cutoff.
 */
function bm25Sql(
  schema: string,
  args: SearchFilter & { limit: number },
  terms: string[],
  p: Params,
  common?: CommonTerms,
): string {
  const tenant = p.add(tenantOf(args.scope));
  const lexemes = p.texts(terms);
  const rows = visibleScopeRows(args.scope);
  const [orgs, users, agents, threads] = [1, 2, 3, 4].map((i) => p.texts(rows.map((row) => row[i]!)));
  const filter = rowFilterSql(args, p, 'k');
  // The postings, in the reader's scopes and passing the filters, of the terms `w` where `which`.
  const probe = (
    which: string,
  ) => `unnest(${orgs}, ${users}, ${agents}, ${threads}) AS s(org_id, user_id, agent_id, thread_id)
        CROSS JOIN LATERAL (
          SELECT k.id, k.org_id, k.user_id, k.agent_id, k.thread_id, k.tf, k.doc_length
            FROM ${schema}.keyword_postings k
           WHERE k.tenant_id = ${tenant} AND k.lexeme = w.lexeme AND k.org_id = s.org_id COLLATE "C"
             AND k.user_id = s.user_id COLLATE "C" AND k.agent_id = s.agent_id COLLATE "C"
             AND k.thread_id = s.thread_id COLLATE "C" AND ${filter}
          OFFSET 0) k
       WHERE ${which}`;
  const part = `w.idf * k.tf * ${BM25_K1 + 1}
      / (k.tf + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B}::float8 * k.doc_length / w.average_length))`;
  // Without the cutoff: every posting of every query term in the reader's scopes.
  const plainParts = `parts AS (
      SELECT k.id, ${part} AS part FROM weights w CROSS JOIN ${probe('true')}),`;
  // A common term next to rarer ones: read whole (`read`, never true without a rarer term, as
  // `rare_df` is then 0) or looked up per candidate.
  const read = `w.df <= ${COMMON_TERM_READ_RATIO} * (SELECT rare_df FROM mix)`;
  const mixAndParts = `mix AS MATERIALIZED (
      SELECT COALESCE(bool_or(NOT common), false) AS rare, COALESCE(bool_or(common), false) AS common,
             COALESCE(sum(df) FILTER (WHERE NOT common), 0) AS rare_df FROM weights),
    candidates AS MATERIALIZED (
      SELECT DISTINCT k.id, k.org_id, k.user_id, k.agent_id, k.thread_id FROM weights w CROSS JOIN ${probe('NOT w.common')}),
    parts AS (
      SELECT k.id, ${part} AS part
        FROM weights w CROSS JOIN ${probe('NOT w.common OR NOT (SELECT rare FROM mix)')}
      UNION ALL
      SELECT k.id, ${part}
        FROM weights w CROSS JOIN ${probe(`w.common AND ${read} AND k.id IN (SELECT id FROM candidates)`)}
      UNION ALL
      SELECT c.id, ${part}
        FROM candidates c
        CROSS JOIN weights w
        CROSS JOIN LATERAL (
          SELECT k.tf, k.doc_length FROM ${schema}.keyword_postings k
           WHERE k.tenant_id = ${tenant} AND k.lexeme = w.lexeme AND k.org_id = c.org_id
             AND k.user_id = c.user_id AND k.agent_id = c.agent_id AND k.thread_id = c.thread_id AND k.id = c.id
          OFFSET 0) k
       WHERE (SELECT rare AND common FROM mix) AND w.common AND NOT ${read}),`;
  return `WITH totals AS (
      SELECT COALESCE(sum(documents), 0)::float8 AS n, COALESCE(sum(terms), 0)::float8 AS total
        FROM ${schema}.keyword_stats WHERE tenant_id = ${tenant}),
    weights AS MATERIALIZED (
      SELECT f.lexeme, f.df, ln(1 + (t.n - f.df + 0.5) / (f.df + 0.5)) AS idf,
             GREATEST(t.total / GREATEST(t.n, 1), 1) AS average_length${
               common
                 ? `,
             t.n >= ${p.add(common.from)}::float8 AND f.df > ${p.add(common.cutoff)}::float8 * t.n AS common`
                 : ''
             }
        FROM (SELECT lexeme, sum(documents)::float8 AS df FROM ${schema}.keyword_terms
               WHERE tenant_id = ${tenant} AND lexeme = ANY(${lexemes})
               GROUP BY lexeme HAVING sum(documents) > 0) f
        CROSS JOIN totals t),
    ${common ? mixAndParts : plainParts}
    best AS (
      SELECT id, sum(part) AS score FROM parts
       GROUP BY id
       ORDER BY score DESC, id LIMIT ${p.add(args.limit)})
    SELECT ${QUALIFIED_COLUMNS}, GREATEST(best.score, 1e-9)::float8 AS score,
           (SELECT n FROM totals) AS tenant_episodes
      FROM best JOIN ${schema}.episodes e ON e.tenant_id = ${tenant} AND e.id = best.id
     ORDER BY best.score DESC, best.id`;
}

/** PostgreSQL's cover-density ranking: ranks every match on the narrow columns, then reads the winners' rows. */
function tsRankSql(
  schema: string,
  args: SearchFilter & { limit: number },
  q: string,
  p: Params,
  normalization: number,
): string {
  const scopes = visibleScopesQuerySql(args.scope, p);
  return `WITH best AS (
      SELECT tenant_id, id, GREATEST(ts_rank_cd(search, ${q}, ${p.add(normalization)}::integer), 1e-9)::float8 AS score
        FROM ${schema}.episodes
       WHERE ${scopedSearchSql()} @@ (${scopes} && ${q}) AND ${filterSql(args, p)}
       ORDER BY score DESC, id LIMIT ${p.add(args.limit)})
    SELECT ${COLUMNS}, best.score FROM best JOIN ${schema}.episodes USING (tenant_id, id)
     ORDER BY best.score DESC, id`;
}

type ListArgs = Parameters<EpisodeDriver['list']>[0];

/**
 * The episodes a scope may see, in time order, `limit` of them (an SQL expression) where
 * `conditions` hold: for each scope the reader sees (at most 8, core's `visibleScopeRows`), a
 * range of the `episodes_scope_timeline` index read in order and cut at the limit, then the first
 * `limit` of those ranges merged. Only the rows returned (and up to `limit` more
 * from each scope holding any) are read from the table. Filtering the tenant's timeline instead
 * reads every row of the tenant's other users and threads in the window: in a tenant of ten users
 * whose turns interleave, ten rows for each one returned. The embedding is left as stored: the
 * caller encodes it over the rows it returns (see `selectColumns`).
 */
function timelineSql(
  schema: string,
  args: SearchFilter & { order: 'asc' | 'desc' },
  conditions: string[],
  limit: string,
  p: Params,
): string {
  const rows = visibleScopeRows(args.scope);
  const [orgs, users, agents, threads] = [1, 2, 3, 4].map((i) => p.texts(rows.map((row) => row[i]!)));
  const direction = args.order === 'asc' ? 'ASC' : 'DESC';
  const where = [
    `e.tenant_id = ${p.add(tenantOf(args.scope))}`,
    ...['org_id', 'user_id', 'agent_id', 'thread_id'].map((c) => `e.${c} = s.${c} COLLATE "C"`),
    rowFilterSql(args, p, 'e'),
    ...conditions,
  ];
  return `SELECT r.* FROM unnest(${orgs}, ${users}, ${agents}, ${threads}) AS s(org_id, user_id, agent_id, thread_id)
      CROSS JOIN LATERAL (
        SELECT ${selectColumns('e', false)} FROM ${schema}.episodes e WHERE ${where.join(' AND ')}
         ORDER BY e.occurred_at ${direction}, e.id ${direction} LIMIT ${limit}) r
     ORDER BY r.occurred_at ${direction}, r.id ${direction} LIMIT ${limit}`;
}

/** One listing's SELECT: `limit + 1` rows in the listing's order. */
function listSql(schema: string, args: ListArgs, p: Params): string {
  const conditions: string[] = [];
  if (args.cursor !== undefined) {
    const [occurredAt, id] = decodeCursor('episodes', args.cursor, ['number', 'string']);
    conditions.push(
      `(e.occurred_at, e.id) ${args.order === 'asc' ? '>' : '<'} (${p.add(occurredAt)}, ${p.add(id)})`,
    );
  }
  const direction = args.order === 'asc' ? 'ASC' : 'DESC';
  return `SELECT ${selectColumns('t', true)}
      FROM (${timelineSql(schema, args, conditions, `${p.add(args.limit + 1)}::integer`, p)}) t
     ORDER BY t.occurred_at ${direction}, t.id ${direction}`;
}

type VectorSearch = SearchFilter & { vector: number[]; limit: number };

/** A cosine distance expression, NaN (a zero vector has no direction) ranked as similarity 0. */
function distanceSql(distance: string): string {
  return `COALESCE(NULLIF(${distance}, 'NaN'), 1)`;
}

/**
 * The `limit` nearest candidates (tenant, id and distance) by the float4 distance to `query` (a
 * `vector` expression), every distance computed, when `when` (a one-time condition) holds; with
 * `user`, only the rows at that user-level value (see `visibleSql`). It reads the episodes through
 * their scope index; ordering by the bare column cannot use an HNSW index. Only the winners' full
 * rows are read after (`bestRowsSql`): the exact float64 embedding lives out of line (TOAST), and
 * reading it for every candidate would cost more than the distances.
 */
function exactSql(
  names: SchemaNames,
  args: VectorSearch,
  query: string,
  when: string,
  p: Params,
  user?: string,
): string {
  const distance = distanceSql(`embedding_f4 OPERATOR(${names.vector}.<=>) ${query}`);
  return `SELECT tenant_id, id, ${distance} AS distance FROM ${names.schema}.episodes
       WHERE dims = ${args.vector.length} AND ${visibleSql(args.scope, p, undefined, user)}
         AND ${rowFilterSql(args, p)} AND ${when}
       ORDER BY distance, id LIMIT ${p.add(args.limit)}`;
}

/** The full rows of the candidates in CTE `best` (see `exactSql`). */
function bestRowsSql(schema: string): string {
  return `SELECT ${QUALIFIED_COLUMNS} FROM best JOIN ${schema}.episodes e ON e.tenant_id = best.tenant_id AND e.id = best.id`;
}

/**
 * The HNSW walk for the `limit` nearest vectors at user-level value `user` passing the filter, when
 * `when` (a one-time condition, tested before the settings are made, so a branch not taken sets
 * nothing) holds. Tenant and user are plain equalities on `episode_vectors`' partition key, so the
 * planner keeps one partition and walks its index (search/episode-vectors.ts). pgvector 0.8
 * iterative index scans keep walking the graph until enough rows pass the filter, instead of
 * returning fewer than asked for; the walk's settings are made by an uncorrelated subquery in
 * WHERE, which PostgreSQL runs once, before the first row is fetched from the index (pgvector reads
 * them as the walk starts and goes on). Outside a transaction `set_config(…, true)` lasts for this
 * statement only; inside the caller's, until it ends, and only HNSW walks (which always set them
 * first) read these settings.
 *
 * The rest of the filter is wrapped in `IS TRUE` so that no B-tree index can serve it: the only
 * plans left are this index walk and a sort of the partition's rows, which the planner takes only
 * for a partition small enough that sorting it is cheap.
 */
function walkSql(
  names: SchemaNames,
  args: VectorSearch,
  query: string,
  when: string,
  maxScanTuples: number,
  p: Params,
  user: string,
): string {
  const { schema, vector: v } = names;
  const d = args.vector.length;
  const settings = `(SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)
      || set_config('hnsw.ef_search', ${p.add(String(Math.min(1000, Math.max(40, args.limit * 2))))}, true)
      || set_config('hnsw.max_scan_tuples', ${p.add(String(maxScanTuples))}, true))`;
  const distance = `${indexedVectorSql(v, d, 'w')} OPERATOR(${v}.<=>) ${query}::${v}.halfvec(${d})`;
  return `SELECT w.tenant_id, w.id, ${distanceSql(distance)} AS distance FROM ${schema}.episode_vectors w
      WHERE w.tenant_id = ${p.add(tenantOf(args.scope))} AND w.user_id = ${p.add(user)} AND w.dims = ${d}
        AND (${visibleSql(args.scope, p, 'w', user)} AND ${rowFilterSql(args, p, 'w')}) IS TRUE
        AND ${when} AND ${settings} IS NOT NULL
      ORDER BY ${distance} LIMIT ${p.add(args.limit)}`;
}

/**
 * One statement for a vector search, in one branch per user-level value the reader sees (its
 * user's rows and, for a reader below the tenant root, the rows above any user): a walk must name
 * one partition of `episode_vectors` by equality to be pruned to it (an `IN` list keeps every
 * partition, and a walk of a partition with no matching row reads its whole index). Each branch
 * answers exactly or walks (`counted_i.exact`): with `decide`, exactly when the branch's rows of
 * `vector_counts` sum to at most the bound (`exactBoundSql`, at least `exactSearchBelow`, more in
 * a big partition); without, it always walks. Each choice is a one-time filter, so the other side
 * never runs. The branches' candidates are merged by distance, and `short` tells whether a walk
 * found fewer rows than asked for (it may have stopped at `hnsw.max_scan_tuples`). Only the
 * branches of `users` are built; `above` counts the visible rows above any user, so a statement
 * built without that branch can tell it was needed after all.
 */
function vectorSearchSql(
  names: SchemaNames,
  args: VectorSearch,
  options: { decide: boolean; exactSearchBelow: number; maxScanTuples: number; users: string[] },
  p: Params,
): string {
  const { schema, vector: v } = names;
  const d = args.vector.length;
  const query = `${p.add(vectorLiteral(args.vector))}::${v}.vector`;
  const branches = options.users.map((user, i) => {
    // Without `decide`, every branch walks: no count to take.
    const exact = options.decide
      ? `${visibleVectorCountSql(schema, args.scope, d, p, user)} <= ${exactBoundSql(
          partitionEntriesSql(schema, d, p.add(tenantOf(args.scope)), p.add(user), p),
          args.limit,
          options.exactSearchBelow,
          p,
        )}`
      : 'false';
    return `counted_${i} AS (SELECT ${exact} AS exact),
      found_${i} AS (
        (${exactSql(names, args, query, `(SELECT exact FROM counted_${i})`, p, user)})
        UNION ALL
        (${walkSql(names, args, query, `(SELECT NOT exact FROM counted_${i})`, options.maxScanTuples, p, user)}))`;
  });
  const ids = branches.map((_, i) => i);
  return `WITH ${branches.join(',\n')},
    best AS (
      SELECT tenant_id, id, distance FROM (${ids.map((i) => `SELECT * FROM found_${i}`).join(' UNION ALL ')}) f
       ORDER BY distance, id LIMIT ${p.add(args.limit)}),
    outcome AS (
      SELECT ${ids.map((i) => `((SELECT NOT exact FROM counted_${i}) AND (SELECT count(*) FROM found_${i}) < ${p.add(args.limit)})`).join(' OR ')} AS short)
    SELECT outcome.short, ${visibleUsers(args.scope).includes('') ? visibleVectorCountSql(schema, args.scope, d, p, '') : 0} AS above, hit.*
      FROM outcome LEFT JOIN (${bestRowsSql(schema)}) hit ON true`;
}

/**
 * The listings (without cursors) of calls that share their filter and order, as one subquery
 * planned once and run for each call's time window and limit. Each row carries its call's index
 * and its position in that call's order.
 */
function listGroupSql(schema: string, calls: Array<{ args: ListArgs; call: number }>, p: Params): string {
  const { since: _since, until: _until, ...shared } = calls[0]!.args;
  const direction = shared.order === 'asc' ? 'ASC' : 'DESC';
  const windows = [
    `${p.add(calls.map((c) => c.call))}::integer[]`,
    `${p.add(calls.map((c) => c.args.since ?? null))}::bigint[]`,
    `${p.add(calls.map((c) => c.args.until ?? null))}::bigint[]`,
    `${p.add(calls.map((c) => c.args.limit + 1))}::integer[]`,
  ];
  const inWindow = [
    `e.occurred_at >= COALESCE(c.since, ${MIN_BIGINT})`,
    `e.occurred_at <= COALESCE(c.until, ${MAX_BIGINT})`,
  ];
  return `SELECT c.call, page.* FROM unnest(${windows.join(', ')}) AS c(call, since, until, size)
    CROSS JOIN LATERAL (
      SELECT row_number() OVER (ORDER BY r.occurred_at ${direction}, r.id ${direction}) AS position, r.*
        FROM (${timelineSql(schema, shared, inWindow, 'c.size', p)}) r) page`;
}

const MIN_BIGINT = "'-9223372036854775808'::bigint";
const MAX_BIGINT = "'9223372036854775807'::bigint";

function listPage(rows: EpisodeRow[], args: ListArgs) {
  return pageOf(rows, args.limit, episodeOf, (row) =>
    encodeCursor('episodes', [int(row.occurred_at), row.id]),
  );
}

export function episodeDriver(
  db: Database,
  indexes: VectorIndexes,
  options: EpisodeSearchOptions & { statistics?: PlannerStatistics },
): EpisodeDriver {
  /** The exact answer: every candidate's distance computed (no index can order by the bare column). */
  async function nearest(names: SchemaNames, args: VectorSearch): Promise<EpisodeRow[]> {
    const p = new Params();
    const query = `${p.add(vectorLiteral(args.vector))}::${names.vector}.vector`;
    const result = await db.query<EpisodeRow>(
      `WITH best AS (${exactSql(names, args, query, 'true', p)}) ${bestRowsSql(names.schema)}`,
      p.values,
    );
    return result.rows;
  }

  /**
   * The search in one statement (`vectorSearchSql`) over the branches of `users`: its rows,
   * whether a walk came up short, and how many visible rows lie above any user.
   */
  async function exactOrWalk(
    names: SchemaNames,
    args: VectorSearch,
    users: string[],
  ): Promise<{ rows: EpisodeRow[]; short: boolean; above: number }> {
    const p = new Params();
    const sql = vectorSearchSql(
      names,
      args,
      {
        decide: options.exactSearchBelow > 0,
        exactSearchBelow: options.exactSearchBelow,
        maxScanTuples: options.hnswMaxScanTuples,
        users,
      },
      p,
    );
    const result = await db.query<EpisodeRow & { short: boolean; above: unknown }>(sql, p.values);
    const first = result.rows[0]!;
    return {
      rows: result.rows.filter((row) => row.id !== null),
      short: first.short,
      above: int(first.above),
    };
  }

  /**
   * Tenants (by schema) whose last vector search found no visible rows above any user (most
   * tenants of users keep everything at a user): their searches leave that branch out, which
   * spares planning it (the walk and the exact search of a second partition: about 1 ms on the
   * server, 3-4 ms a search on a slow 2 vCPU host). A search that finds such rows after all runs
   * again with the branch.
   */
  const noneAboveUsers = new Set<string>();

  /** Tenants (by schema) last seen holding at least `commonTermsFrom` episodes. */
  const largeTenants = new Set<string>();

  /**
   * `list` calls without a cursor made together outside a transaction (recall reads both sides of
   * each of its best hits at once) go to the server as one statement: the calls sharing a filter
   * and an order are one LATERAL subquery over their windows and limits (planned once, however
   * many calls), the groups joined by UNION ALL, each row tagged with its call's index and its
   * position in that call's order, so each caller gets the page its own statement would have
   * returned. A call alone runs its own statement.
   */
  /** The nearest episodes, scored by cosine (see `searchVector`). */
  async function nearestScored(args: VectorSearch): Promise<ScoredEpisode[]> {
    const names = await db.names();
    if (args.vector.length > MAX_HNSW_DIMENSIONS)
      return cosineScored(await nearest(names, args), args.vector);
    const users = visibleUsers(args.scope);
    const key = `${names.schema}\u0000${tenantOf(args.scope)}`;
    let search = await exactOrWalk(
      names,
      args,
      users.length > 1 && noneAboveUsers.has(key) ? users.slice(1) : users,
    );
    if (users.length > 1 && search.above === 0) {
      if (noneAboveUsers.size >= MAX_REMEMBERED) noneAboveUsers.clear();
      noneAboveUsers.add(key);
    } else if (search.above > 0 && noneAboveUsers.delete(key)) {
      search = await exactOrWalk(names, args, users);
    }
    const { rows, short } = search;
    // A walk can stop early (hnsw.max_scan_tuples) when other users hold most of the nearby
    // vectors of its partition, or the filter rejects most of its own; then the exact query
    // gives the complete answer.
    if (short) return cosineScored(await nearest(names, args), args.vector);
    return cosineScored(rows, args.vector);
  }

  async function listOne(args: ListArgs) {
    const { schema } = await db.names();
    const p = new Params();
    const result = await db.query<EpisodeRow>(listSql(schema, args, p), p.values);
    return listPage(result.rows, args);
  }

  const listTogether = tickBatcher(async (calls: ListArgs[]) => {
    if (calls.length === 1) return [await listOne(calls[0]!)];
    const { schema } = await db.names();
    const p = new Params();
    const groups = new Map<string, Array<{ args: ListArgs; call: number }>>();
    for (const [call, args] of calls.entries()) {
      const key = JSON.stringify([args.scope, args.accessLevel ?? null, args.status, args.order]);
      const group = groups.get(key) ?? [];
      groups.set(key, group);
      group.push({ args, call });
    }
    const parts = [...groups.values()].map((group) => `(${listGroupSql(schema, group, p)})`);
    const result = await db.query<EpisodeRow & { call: number }>(
      `SELECT calls.call, ${selectColumns('calls', true)} FROM (${parts.join(' UNION ALL ')}) calls
        ORDER BY calls.call, calls.position`,
      p.values,
    );
    const rows = calls.map((): EpisodeRow[] => []);
    for (const row of result.rows) rows[row.call]!.push(row);
    return calls.map((args, i) => listPage(rows[i]!, args));
  });

  return {
    async put({ episodes }) {
      const { schema, vector } = await db.names();
      // The index for a new dimension is made (and committed) before the insert, so the insert's
      // transaction never holds the table lock CREATE INDEX takes.
      for (const d of new Set(episodes.flatMap((e) => (e.embedding ? [e.embedding.length] : [])))) {
        await indexes.ensure(d);
      }
      const p = new Params();
      const documents = episodes.map((e) => documentVector(e.text));
      const rows = episodes.map(
        (e, i) =>
          `(${scopeValuesSql(e.scope, p)}, ${p.add(e.id)}, ${p.add(e.text)}, ${p.add(e.role ?? null)},
            ${p.add(e.speaker ?? null)}, ${p.add(e.occurredAt)}, ${p.add(e.createdAt)}, ${p.add(e.importance)},
            ${p.add(e.accessCount)}, ${p.add(e.lastAccessedAt ?? null)},
            ${e.embedding ? `${p.add(encodeFloat8Bytes(e.embedding))}::bytea` : 'NULL'},
            ${e.embedding ? `${p.add(vectorLiteral(e.embedding))}::${vector}.vector` : 'NULL'},
            ${p.add(e.contentHash)}, ${p.add(e.status)}, ${p.add(e.mergedInto ?? null)}, ${p.add(e.accessLevel)},
            ${p.json(e.provenance)}, ${p.json(e.metadata)}, ${e.embedding ? p.add(e.embedding.length) : 'NULL'},
            ${p.add(documents[i]!.vector)}::tsvector, ${p.add(documents[i]!.length)})`,
      );
      // One statement: the rows and BM25's statistics commit together, or (an id taken) neither.
      try {
        await db.query(
          `WITH inserted AS (
             INSERT INTO ${schema}.episodes (${STORED_COLUMNS}, dims, search, doc_length)
             VALUES ${rows.join(', ')}
             RETURNING ${SCOPE_COLUMN_LIST}, id, doc_length, search, status, access_level, occurred_at, dims,
               embedding_f4),
           ${keywordChangesSql(schema, 'inserted', 1)},
           ${vectorCountChangesSql(schema, 'inserted', 1)},
           ${postingsAddedSql(schema, 'inserted')},
           ${vectorsAddedSql(schema, 'inserted')}
           SELECT count(*) AS n FROM inserted`,
          p.values,
        );
      } catch (error) {
        if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) {
          const taken = /\(tenant_id, id\)=\((.*), (.*)\)/.exec(
            String((error as { detail?: unknown }).detail),
          )?.[2];
          throw conflict(
            taken ? `episode "${taken}" already exists` : 'an episode id of the batch already exists',
            { id: taken },
          );
        }
        throw error;
      }
      options.statistics?.noteEpisodes(episodes.length);
      return episodes.map((e) => compact(e) as EpisodeRecord);
    },

    async get({ scope, ids, accessLevel }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [visibleByIdSql(scope, ids, p), ...accessSql(accessLevel, p)];
      const result = await db.query<EpisodeRow>(
        `SELECT ${COLUMNS} FROM ${schema}.episodes WHERE ${where.join(' AND ')}`,
        p.values,
      );
      const byId = new Map(result.rows.map((row) => [row.id, episodeOf(row)]));
      return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
    },

    async list(args) {
      return args.cursor === undefined && !db.inTransaction() ? listTogether(args) : listOne(args);
    },

    async count({ scope, status }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query<{ n: unknown }>(
        `SELECT count(*) AS n FROM ${schema}.episodes WHERE ${filterSql({ scope, status }, p)}`,
        p.values,
      );
      return int(result.rows[0]!.n);
    },

    async searchKeyword(args) {
      const terms = queryTerms(args.query);
      const tsquery = anyTermQuery(terms);
      if (tsquery === undefined) return [];
      const { schema } = await db.names();
      if (options.keywordRanking === 'ts_rank_cd') {
        const p = new Params();
        const q = `${p.add(tsquery)}::tsquery`;
        const result = await db.query<ScoredRow>(
          tsRankSql(schema, args, q, p, options.rankNormalization),
          p.values,
        );
        return scored(result.rows);
      }
      const search = async (common?: CommonTerms) => {
        const p = new Params();
        const result = await db.query<ScoredRow & { tenant_episodes: unknown }>(
          bm25Sql(schema, args, terms, p, common),
          p.values,
        );
        return result.rows;
      };
      if (options.commonTermCutoff >= 1) return scored(await search());
      // The common-terms statement costs more to plan, so it only goes to tenants last seen with
      // at least `commonTermsFrom` episodes; a search that finds its tenant has grown past that
      // runs again with it. Which statement ran never changes the results: the cutoff's statement
      // checks the tenant's size itself.
      const common = { cutoff: options.commonTermCutoff, from: options.commonTermsFrom };
      const key = `${schema}\u0000${tenantOf(args.scope)}`;
      const large = largeTenants.has(key);
      let rows = await search(large ? common : undefined);
      const size = rows[0] === undefined ? undefined : Number(rows[0].tenant_episodes);
      if (size !== undefined && size >= common.from) {
        if (largeTenants.size >= MAX_REMEMBERED) largeTenants.clear();
        largeTenants.add(key);
        if (!large) rows = await search(common);
      } else if (size !== undefined) {
        largeTenants.delete(key);
      }
      return scored(rows);
    },

    async searchVector(args) {
      const results = await nearestScored(args);
      return args.minScore === undefined ? results : results.filter((r) => r.score >= args.minScore!);
    },

    async findByHash({ scope, contentHashes }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query<EpisodeRow>(
        `SELECT ${COLUMNS} FROM ${schema}.episodes
          WHERE ${exactScopeSql(scope, p)} AND status = 'active' AND content_hash = ANY(${p.texts(contentHashes)})
          ORDER BY created_at, id`,
        p.values,
      );
      return result.rows.map(episodeOf);
    },

    async update({ scope, id, patch }) {
      const { schema } = await db.names();
      const p = new Params();
      const set = [
        `importance = COALESCE(${p.add(patch.importance ?? null)}::float8, importance)`,
        `status = COALESCE(${p.add(patch.status ?? null)}, status)`,
        `merged_into = COALESCE(${p.add(patch.mergedInto ?? null)}, merged_into)`,
        `access_count = COALESCE(${p.add(patch.accessCount ?? null)}::integer, access_count)`,
        `last_accessed_at = COALESCE(${p.add(patch.lastAccessedAt ?? null)}::bigint, last_accessed_at)`,
        `occurred_at = COALESCE(${p.add(patch.occurredAt ?? null)}::bigint, occurred_at)`,
        `metadata = metadata || ${p.json(patch.metadata ?? {})}`,
      ];
      // Status and time are filters of both searches: postings and vectors follow in the same statement.
      const result = await db.query<EpisodeRow>(
        `WITH changed AS (
           UPDATE ${schema}.episodes SET ${set.join(', ')}
            WHERE ${visibleByIdSql(scope, id, p)}
            RETURNING ${COLUMNS}),
         ${postingsChangedSql(schema, 'changed')},
         ${vectorsChangedSql(schema, 'changed')}
         SELECT * FROM changed`,
        p.values,
      );
      if (!result.rows[0]) throw notFound('episode', id);
      return episodeOf(result.rows[0]);
    },

    async recordAccess({ scope, ids, at }) {
      const { schema } = await db.names();
      const p = new Params();
      // Access counts are a ranking signal, written after every recall: outside a transaction the
      // write commits without waiting for its WAL to reach disk (synchronous_commit off for this
      // statement's own transaction only). A crash can lose the last fraction of a second of
      // counts, never make the database inconsistent. Inside a caller's transaction it changes
      // nothing: that commit keeps the durability the caller chose.
      const asynchronous = db.inTransaction()
        ? ''
        : ` AND (SELECT set_config('synchronous_commit', 'off', true)) IS NOT NULL`;
      await db.query(
        `UPDATE ${schema}.episodes SET access_count = access_count + 1, last_accessed_at = ${p.add(at)}
          WHERE ${visibleByIdSql(scope, [...new Set(ids)], p)}${asynchronous}`,
        p.values,
      );
    },

    async delete({ scope, ids }) {
      const { schema } = await db.names();
      return db.atomic(async () => {
        const p = new Params();
        const result = await db.query<{ n: unknown; lexemes: string[] | null }>(
          `WITH gone AS (
             DELETE FROM ${schema}.episodes WHERE ${visibleByIdSql(scope, ids, p)}
             RETURNING ${SCOPE_COLUMN_LIST}, id, doc_length, search, dims),
           ${keywordChangesSql(schema, 'gone', -1)},
           ${vectorCountChangesSql(schema, 'gone', -1)},
           ${postingsRemovedSql(schema, 'gone')},
           ${vectorsRemovedSql(schema, 'gone')}
           SELECT count(*) AS n, ${lexemesOfSql('gone')} AS lexemes FROM gone`,
          p.values,
        );
        const lexemes = result.rows[0]!.lexemes;
        if (lexemes && lexemes.length > 0) {
          // Terms no episode holds any more would keep the deleted words in keyword_terms.
          const t = new Params();
          await db.query(emptyTermsRemovedSql(schema, t.add(tenantOf(scope)), t.texts(lexemes)), t.values);
        }
        return { deleted: int(result.rows[0]!.n) };
      });
    },
  };
}
