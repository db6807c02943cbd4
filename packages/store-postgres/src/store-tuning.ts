import { z } from 'zod/v4';
import type { AnalyzeMode } from './driver/planner-statistics.ts';
import { checkSchemaName } from './schema/identifiers.ts';

/** Tuning shared by every way of opening the store. */
export interface StoreTuning {
  /** Schema holding Strata's tables; several stores can share a database in separate schemas. Default `strata`. */
  schema?: string;
  /** Shown in errors and `store.name`. Default `postgres`. */
  name?: string;
  /**
   * How keyword matches are ranked. `bm25` (default): BM25 (k1 1.2, b 0.75) with document
   * frequencies and lengths from the reader's tenant, the in-memory store's scores.
   * `ts_rank_cd`: PostgreSQL's cover density ranking (cheaper, no term rarity: see the README).
   */
  keywordRanking?: 'bm25' | 'ts_rank_cd';
  /**
   * `ts_rank_cd` normalization bits (PostgreSQL's "Ranking Search Results"): 0 ignores document
   * length; 1 divides by 1 + log(length); 4 by the mean distance between extents; 32 maps the
   * rank into [0, 1). Default 0, the best of them on LoCoMo. Only used with `ts_rank_cd`.
   */
  rankNormalization?: number;
  /**
   * Vector searches whose visible scopes hold at most this many episodes with embeddings of the
   * query's size (any status, time or access level: counted per scope as episodes are written) are
   * answered by an exact scan; larger ones use the HNSW index, unless the index is so big that the
   * walk would visit more entries than the scope has rows (the bound grows to
   * √(1.7 × limit × index entries)). `0` sends every search to the index. Default 5000.
   */
  exactSearchBelow?: number;
  /**
   * Most index entries one HNSW walk visits looking for rows that pass the scope filters
   * (pgvector's `hnsw.max_scan_tuples`). A walk that stops short falls back to an exact scan, so
   * results stay complete; lower values bound the index's work. Default 20000.
   */
  hnswMaxScanTuples?: number;
  /**
   * BM25's common-terms cutoff (Lucene's CommonTermsQuery, Elasticsearch's `cutoff_frequency`): a
   * query term found in more than this share of the tenant's episodes is common. When a query also
   * has a rarer term, only episodes holding a rarer term are candidates, and the common terms add
   * their BM25 score to those (looked up per candidate, not read in full); when every term is
   * common, every episode holding one is scored. `1` turns the cutoff off. Default 0.05.
   */
  commonTermCutoff?: number;
  /** Tenants with fewer episodes than this score every match, whatever the cutoff. Default 20000. */
  commonTermsFrom?: number;
  /**
   * Who refreshes the planner's statistics as the tables grow. `auto` (default): the store does
   * (ANALYZE after every 500 episodes plus a fifth of the table, in the background) on PGlite and
   * on a server running with `autovacuum` off, and leaves it to autovacuum otherwise. `always`,
   * `never`: whatever the server does. See the README's "Planner statistics".
   */
  analyze?: AnalyzeMode;
}

export const tuningShape = {
  schema: z.string().optional(),
  name: z.string().min(1).max(128).optional(),
  keywordRanking: z.enum(['bm25', 'ts_rank_cd']).optional(),
  rankNormalization: z.number().int().min(0).max(63).optional(),
  exactSearchBelow: z.number().int().min(0).max(10_000_000).optional(),
  hnswMaxScanTuples: z.number().int().min(1).max(100_000_000).optional(),
  commonTermCutoff: z.number().gt(0).max(1).optional(),
  commonTermsFrom: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  analyze: z.enum(['auto', 'always', 'never']).optional(),
};

export interface ResolvedTuning {
  schema: string;
  name: string;
  keywordRanking: 'bm25' | 'ts_rank_cd';
  rankNormalization: number;
  exactSearchBelow: number;
  hnswMaxScanTuples: number;
  commonTermCutoff: number;
  commonTermsFrom: number;
  analyze: AnalyzeMode;
}

export function resolveTuning(options: StoreTuning, defaultName: string): ResolvedTuning {
  return {
    schema: checkSchemaName(options.schema ?? 'strata'),
    name: options.name ?? defaultName,
    keywordRanking: options.keywordRanking ?? 'bm25',
    rankNormalization: options.rankNormalization ?? 0,
    exactSearchBelow: options.exactSearchBelow ?? 5_000,
    hnswMaxScanTuples: options.hnswMaxScanTuples ?? 20_000,
    commonTermCutoff: options.commonTermCutoff ?? 0.05,
    commonTermsFrom: options.commonTermsFrom ?? 20_000,
    analyze: options.analyze ?? 'auto',
  };
}
