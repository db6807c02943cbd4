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
} from '@strata-memory/core';
import type { SchemaNames } from '../schema/migrations.ts';
import { keywordChangesSql } from '../search/keyword-stats.ts';
import { scopedSearchSql, visibleScopesQuerySql } from '../search/scoped-search.ts';
import { anyTermQuery, documentVector, queryTerms } from '../search/tsvector.ts';
import { MAX_HNSW_DIMENSIONS, type VectorIndexes } from '../search/vector-indexes.ts';
import { vectorLiteral } from '../search/vector-literal.ts';
import { decodeCursor, encodeCursor, pageOf } from '../sql/cursor.ts';
import { Params } from '../sql/params.ts';
import {
  accessSql,
  exactScopeSql,
  SCOPE_COLUMN_LIST,
  scopeValuesSql,
  visibleSql,
} from '../sql/scope-filter.ts';
import type { Database } from './database.ts';
import {
  compact,
  decodeFloat8Array,
  int,
  metadataOf,
  optionalInt,
  optionalText,
  type ScopeRow,
  scopeOfRow,
} from './rows.ts';

export interface EpisodeSearchOptions {
  /** How keyword matches are scored: BM25 over the tenant's episodes, or PostgreSQL's `ts_rank_cd`. */
  keywordRanking: 'bm25' | 'ts_rank_cd';
  /** `ts_rank_cd` normalization bits (see PostgreSQL's "Ranking Search Results"). */
  rankNormalization: number;
  /**
   * A vector search whose visible candidates number at most this many is answered exactly
   * (every distance computed) instead of through the HNSW index.
   */
  exactSearchBelow: number;
  /**
   * How many index entries one HNSW walk may visit while looking for rows that pass the filters
   * (pgvector's `hnsw.max_scan_tuples`); when it stops short, the exact query answers instead.
   */
  hnswMaxScanTuples: number;
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
  embedding: unknown;
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
  last_accessed_at, embedding, embedding_f4, content_hash, status, merged_into, access_level, provenance, metadata`;

/**
 * The columns a record is read from. The float64 embedding comes in PostgreSQL's binary array
 * format (`array_send`): printing a 384-dimension float8[] as text cost the server about 0.2 ms
 * per row and node-postgres as much again to parse it, where the binary form is copied out
 * exactly, at a fraction of the cost, and decoded with `decodeFloat8Array`.
 */
function selectColumns(alias?: string): string {
  const c = (name: string) => (alias ? `${alias}.${name}` : name);
  return `${SCOPE_COLUMN_LIST.split(', ').map(c).join(', ')}, ${c('id')}, ${c('text')}, ${c('role')}, ${c('speaker')},
    ${c('occurred_at')}, ${c('created_at')}, ${c('importance')}, ${c('access_count')}, ${c('last_accessed_at')},
    array_send(${c('embedding')}) AS embedding, ${c('content_hash')}, ${c('status')}, ${c('merged_into')},
    ${c('access_level')}, ${c('provenance')}, ${c('metadata')}`;
}

const COLUMNS = selectColumns();
const QUALIFIED_COLUMNS = selectColumns('e');

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
    embedding: row.embedding === null ? undefined : decodeFloat8Array(row.embedding),
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
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  const parts = [visibleSql(filter.scope, p, alias), `${column('status')} = ANY(${p.texts(filter.status)})`];
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

/** How long a vector search remembers whether a filter had few candidates. */
const DECISION_TTL_MS = 10_000;
const MAX_DECISIONS = 10_000;

/** PostgreSQL's unique_violation: an episode id already taken. */
const UNIQUE_VIOLATION = '23505';

/** BM25 parameters, the same as the in-memory store's and SQLite FTS5's. */
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/** A query term's BM25 weight in the reader's tenant. */
interface TermWeight {
  lexeme: string;
  idf: number;
  /** Episodes of the tenant holding it. */
  documents: number;
}

/** What BM25 needs from the tenant: its episode count, average length and each term's IDF. */
interface CollectionStats {
  averageLength: number;
  weights: TermWeight[];
}

/**
 * BM25's collection statistics, as the in-memory reference store computes them: the episode count,
 * the average length and each term's document frequency over every episode of the reader's tenant
 * (any scope, any status: one tenant's data never changes another's scores). One statement reads
 * them from `keyword_stats` and `keyword_terms`, which every write keeps up to date.
 */
async function collectionStats(
  db: Database,
  schema: string,
  tenant: string,
  terms: string[],
): Promise<CollectionStats> {
  const p = new Params();
  const t = p.add(tenant);
  const result = await db.query<{ n: unknown; total: unknown; lexeme: string | null; df: unknown }>(
    `WITH totals AS (
       SELECT COALESCE(sum(documents), 0) AS n, COALESCE(sum(terms), 0) AS total
         FROM ${schema}.keyword_stats WHERE tenant_id = ${t}),
     frequencies AS (
       SELECT lexeme, sum(documents) AS df FROM ${schema}.keyword_terms
        WHERE tenant_id = ${t} AND lexeme = ANY(${p.texts(terms)}) GROUP BY lexeme)
     SELECT totals.n, totals.total, f.lexeme, f.df FROM totals LEFT JOIN frequencies f ON true`,
    p.values,
  );
  const first = result.rows[0];
  const n = first ? Number(first.n) : 0;
  const total = first ? Number(first.total) : 0;
  const df = new Map(
    result.rows.filter((row) => row.lexeme !== null).map((row) => [row.lexeme!, Number(row.df)]),
  );
  return {
    averageLength: Math.max(total / Math.max(n, 1), 1),
    weights: terms.map((lexeme) => {
      const frequency = df.get(lexeme) ?? 0;
      return { lexeme, idf: Math.log(1 + (n - frequency + 0.5) / (frequency + 0.5)), documents: frequency };
    }),
  };
}

/** The most a term can add to an episode's score: its IDF times (k1 + 1), as term frequency grows. */
function upperBound(weight: TermWeight): number {
  return weight.idf * (BM25_K1 + 1);
}

/**
 * MaxScore's split of the query terms: the lowest-weighted terms whose upper bounds together stay
 * below the weight of the rarest term can be left out of the match (an episode holding only them
 * scores below any holding the rarest term once, give or take its length), as long as the page of
 * episodes found through the other terms ends above that sum: then none of the episodes left out
 * could have made the page. Returns the terms to match and the bound the page must beat.
 */
function essentialTerms(weights: readonly TermWeight[]): { essential: TermWeight[]; bound: number } {
  const byWeight = [...weights].sort((a, b) => a.idf - b.idf);
  const rarest = byWeight[byWeight.length - 1]!;
  let bound = 0;
  let skipped = 0;
  while (skipped < byWeight.length - 1 && bound + upperBound(byWeight[skipped]!) < rarest.idf) {
    bound += upperBound(byWeight[skipped]!);
    skipped += 1;
  }
  return { essential: byWeight.slice(skipped), bound };
}

/**
 * BM25 over the reader's episodes matching any of `matched` (a subset of the query's terms), each
 * scored with every query term in `weights`: term frequencies are read off the tsvector's
 * positions, then the read filter chooses which scored episodes are returned. Only episodes the
 * reader may see are read.
 */
function bm25Sql(
  schema: string,
  args: SearchFilter & { limit: number },
  stats: CollectionStats,
  matched: readonly TermWeight[],
  p: Params,
): string {
  const tenant = p.add(tenantOf(args.scope));
  const q = `${p.add(anyTermQuery(matched.map((w) => w.lexeme)))}::tsquery`;
  const lexemes = p.texts(stats.weights.map((w) => w.lexeme));
  const idfs = `${p.add(stats.weights.map((w) => w.idf))}::float8[]`;
  const averageLength = `${p.add(stats.averageLength)}::float8`;
  const scopes = visibleScopesQuerySql(args.scope, p);
  return `WITH weights AS (SELECT * FROM unnest(${lexemes}, ${idfs}) AS w(lexeme, idf)),
    postings AS (
      SELECT e.id, e.doc_length, u.lexeme, cardinality(u.positions)::float8 AS tf
        FROM ${schema}.episodes e CROSS JOIN LATERAL unnest(e.search) u
       WHERE ${scopedSearchSql('e')} @@ (${scopes} && ${q}) AND ${filterSql(args, p, 'e')}
         AND u.lexeme = ANY(${lexemes})),
    best AS (
      SELECT t.id, sum(w.idf * t.tf * ${BM25_K1 + 1}
                   / (t.tf + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * t.doc_length / ${averageLength}))) AS score
        FROM postings t JOIN weights w USING (lexeme)
       GROUP BY t.id
       ORDER BY score DESC, t.id LIMIT ${p.add(args.limit)})
    SELECT ${QUALIFIED_COLUMNS}, GREATEST(best.score, 1e-9)::float8 AS score
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

export function episodeDriver(
  db: Database,
  indexes: VectorIndexes,
  options: EpisodeSearchOptions,
): EpisodeDriver {
  async function nearest(
    names: SchemaNames,
    args: SearchFilter & { vector: number[]; limit: number },
    exact: boolean,
  ): Promise<EpisodeRow[]> {
    const { schema, vector: v } = names;
    const d = args.vector.length;
    const p = new Params();
    const where = `dims = ${d} AND ${filterSql(args, p)}`;
    if (exact) {
      // Ordering by the bare column cannot use the per-dimension index: an exact scan. A zero
      // vector has no direction (distance NaN) and ranks as similarity 0.
      const query = `${p.add(vectorLiteral(args.vector))}::${v}.vector`;
      // Only the winners' full rows are read: the exact float64 embedding lives out of line
      // (TOAST), and reading it for every candidate would cost more than the distances.
      const result = await db.query<EpisodeRow>(
        `WITH best AS (
           SELECT tenant_id, id, COALESCE(NULLIF(embedding_f4 OPERATOR(${v}.<=>) ${query}, 'NaN'), 1) AS distance
             FROM ${schema}.episodes WHERE ${where}
            ORDER BY distance, id LIMIT ${p.add(args.limit)})
         SELECT ${QUALIFIED_COLUMNS} FROM best JOIN ${schema}.episodes e ON e.tenant_id = best.tenant_id AND e.id = best.id
          ORDER BY best.distance, best.id`,
        p.values,
      );
      return result.rows;
    }
    const typed = `${v}.vector(${d})`;
    const query = `${p.add(vectorLiteral(args.vector))}::${typed}`;
    return db.atomic(async () => {
      // pgvector 0.8 iterative index scans: keep walking the graph until enough rows pass the
      // scope filter, instead of returning fewer than asked for. Sorting every candidate is never
      // wanted here (a small candidate set took the exact path), so the planner is told to walk
      // the index rather than sort the tenant's rows.
      await db.query(
        `SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', $1, true),
                set_config('hnsw.max_scan_tuples', $2, true), set_config('enable_sort', 'off', true)`,
        [String(Math.min(1000, Math.max(40, args.limit * 2))), String(options.hnswMaxScanTuples)],
      );
      const result = await db.query<EpisodeRow>(
        `SELECT ${COLUMNS} FROM ${schema}.episodes WHERE ${where}
          ORDER BY embedding_f4::${typed} OPERATOR(${v}.<=>) ${query}
          LIMIT ${p.add(args.limit)}`,
        p.values,
      );
      return result.rows;
    });
  }

  /**
   * Which way each recent filter went (few candidates or not), so repeated searches at one scope
   * skip the count's round trip. A stale answer only costs speed, never results: an exact scan is
   * always right, and an index walk that comes up short falls back to one.
   */
  const decisions = new Map<string, { few: boolean; at: number }>();

  /** True when at most `exactSearchBelow` visible episodes of this dimension pass the filter. */
  async function fewCandidates(names: SchemaNames, args: SearchFilter, d: number): Promise<boolean> {
    const key = JSON.stringify([
      names.schema,
      d,
      args.scope,
      args.status,
      args.accessLevel ?? null,
      args.since ?? null,
      args.until ?? null,
    ]);
    const now = Date.now();
    const cached = decisions.get(key);
    if (cached && now - cached.at < DECISION_TTL_MS) return cached.few;
    const few = await countFewCandidates(names, args, d);
    if (decisions.size >= MAX_DECISIONS) decisions.clear();
    decisions.set(key, { few, at: now });
    return few;
  }

  async function countFewCandidates(names: SchemaNames, args: SearchFilter, d: number): Promise<boolean> {
    const p = new Params();
    const result = await db.query<{ n: unknown }>(
      `SELECT count(*) AS n FROM (
         SELECT 1 FROM ${names.schema}.episodes WHERE dims = ${d} AND ${filterSql(args, p)}
          LIMIT ${p.add(options.exactSearchBelow + 1)}) candidates`,
      p.values,
    );
    return int(result.rows[0]!.n) <= options.exactSearchBelow;
  }

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
            ${e.embedding ? `${p.add(e.embedding)}::float8[]` : 'NULL'},
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
             RETURNING tenant_id, doc_length, search),
           ${keywordChangesSql(schema, 'inserted', 1)}
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
      return episodes.map((e) => compact(e) as EpisodeRecord);
    },

    async get({ scope, ids, accessLevel }) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [visibleSql(scope, p), `id = ANY(${p.texts(ids)})`, ...accessSql(accessLevel, p)];
      const result = await db.query<EpisodeRow>(
        `SELECT ${COLUMNS} FROM ${schema}.episodes WHERE ${where.join(' AND ')}`,
        p.values,
      );
      const byId = new Map(result.rows.map((row) => [row.id, episodeOf(row)]));
      return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
    },

    async list(args) {
      const { schema } = await db.names();
      const p = new Params();
      const where = [filterSql(args, p)];
      const direction = args.order === 'asc' ? 'ASC' : 'DESC';
      if (args.cursor !== undefined) {
        const [occurredAt, id] = decodeCursor('episodes', args.cursor, ['number', 'string']);
        where.push(
          `(occurred_at, id) ${args.order === 'asc' ? '>' : '<'} (${p.add(occurredAt)}, ${p.add(id)})`,
        );
      }
      const result = await db.query<EpisodeRow>(
        `SELECT ${COLUMNS} FROM ${schema}.episodes WHERE ${where.join(' AND ')}
          ORDER BY occurred_at ${direction}, id ${direction} LIMIT ${p.add(args.limit + 1)}`,
        p.values,
      );
      return pageOf(result.rows, args.limit, episodeOf, (row) =>
        encodeCursor('episodes', [int(row.occurred_at), row.id]),
      );
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
      const stats = await collectionStats(db, schema, tenantOf(args.scope), terms);
      // Terms no episode of the tenant holds match nothing and add nothing.
      const present = stats.weights.filter((w) => w.documents > 0);
      if (present.length === 0) return [];
      const { essential, bound } = essentialTerms(present);
      if (essential.length < present.length) {
        // MaxScore: match only the heavier terms; the answer stands when its last score beats
        // every score an episode holding none of them could reach.
        const p = new Params();
        const result = await db.query<ScoredRow>(bm25Sql(schema, args, stats, essential, p), p.values);
        const last = result.rows[args.limit - 1];
        if (last && Number(last.score) > bound) return scored(result.rows);
      }
      const p = new Params();
      const result = await db.query<ScoredRow>(bm25Sql(schema, args, stats, present, p), p.values);
      return scored(result.rows);
    },

    async searchVector(args) {
      const names = await db.names();
      const d = args.vector.length;
      const indexed = d <= MAX_HNSW_DIMENSIONS && !(await fewCandidates(names, args, d));
      if (indexed) {
        const rows = await nearest(names, args, false);
        // The index walk can stop early (hnsw.max_scan_tuples) when other tenants hold most of the
        // nearby vectors; then the exact query gives the complete answer.
        if (rows.length >= args.limit) return cosineScored(rows, args.vector);
      }
      return cosineScored(await nearest(names, args, true), args.vector);
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
      const result = await db.query<EpisodeRow>(
        `UPDATE ${schema}.episodes SET ${set.join(', ')}
          WHERE ${visibleSql(scope, p)} AND id = ${p.add(id)}
          RETURNING ${COLUMNS}`,
        p.values,
      );
      if (!result.rows[0]) throw notFound('episode', id);
      return episodeOf(result.rows[0]);
    },

    async recordAccess({ scope, ids, at }) {
      const { schema } = await db.names();
      const p = new Params();
      await db.query(
        `UPDATE ${schema}.episodes SET access_count = access_count + 1, last_accessed_at = ${p.add(at)}
          WHERE ${visibleSql(scope, p)} AND id = ANY(${p.texts([...new Set(ids)])})`,
        p.values,
      );
    },

    async delete({ scope, ids }) {
      const { schema } = await db.names();
      const p = new Params();
      const result = await db.query<{ n: unknown }>(
        `WITH gone AS (
           DELETE FROM ${schema}.episodes WHERE ${visibleSql(scope, p)} AND id = ANY(${p.texts(ids)})
           RETURNING tenant_id, doc_length, search),
         ${keywordChangesSql(schema, 'gone', -1)}
         SELECT count(*) AS n FROM gone`,
        p.values,
      );
      return { deleted: int(result.rows[0]!.n) };
    },
  };
}
