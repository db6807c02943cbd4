import { createHash } from 'node:crypto';
import { type Scope, visibleScopeRows } from '@strata-memory/core/store';
import type { Statements } from '../database/statements.ts';
import { inClause, type SqlValue, scopeValues } from '../sql/scope-sql.ts';
import { QuantisedVectors } from './quantised-vectors.ts';
import { SignCodes } from './sign-codes.ts';

/**
 * Episode embeddings in sqlite-vec `vec0` tables, one per vector size, created on first use.
 *
 * Each table is partitioned by the hash of the row's exact scope (a vec0 partition key), so a
 * search reads only the partitions of the scopes the reader may see (at most 8: each level below
 * the tenant's unset or the reader's), never a sibling's or another tenant's, however many vectors they hold: in a
 * tenant of a thousand users, a user's search reads that user's vectors and the shared ones above.
 * Metadata columns carry the rest of the read filter (status, access level, time). The caller still
 * checks every returned row against the episodes table with the exact SQL filter (a hash can
 * collide) and asks for more when rows fall out.
 *
 * Each row holds its vector twice: unit-length float32, compared by L2 distance (on unit vectors
 * the same order as cosine, at half the arithmetic), and as sign bits, compared by Hamming
 * distance at a fraction of the cost. sqlite-vec 0.1 searches by brute force, so a search whose
 * visible partitions hold more vectors than `exactLimit` goes through the sign bits for
 * `oversampling` times the rows asked for, and the caller re-ranks those by exact cosine; smaller
 * ones are searched exactly. The sign bits are also packed in blocks (`SignCodes`), which a coarse
 * search may rank in process, unfiltered: vec0 keeps its top k per chunk of `chunkSize` vectors,
 * at a cost that grows with k and the number of chunks. Each vector is also kept rounded to one
 * byte per component (`QuantisedVectors`), from which the caller bounds a coarse candidate's
 * cosine before reading its float64 embedding. `vector_scopes` counts each scope's vectors per size to choose. Zero
 * vectors have no direction and are not indexed (their score is 0).
 *
 * Every partition takes at least one chunk (`chunkSize` vectors) of space, so very many scopes
 * holding a few vectors each (long-term memory kept per thread) cost space: lower `chunkSize`.
 */
export interface VectorEntry {
  rowId: number;
  scope: Scope;
  status: string;
  accessLevel: number;
  occurredAt: number;
  vector: readonly number[];
  norm: number;
}

export interface VectorQuery {
  dimensions: number;
  /** Scope hashes of the partitions to search (from `visiblePartitions`). */
  partitions: readonly bigint[];
  statuses: readonly string[];
  accessLevel?: number;
  since?: number;
  until?: number;
  vector: readonly number[];
  k: number;
  /** Search the sign bits (approximate) instead of the float vectors. */
  coarse: boolean;
  /**
   * With `coarse`: search inside vec0 with the filter columns applied (false: rank the packed
   * codes, unfiltered, which is much faster when nearly every row passes the filter).
   */
  filterInIndex: boolean;
}

export interface VectorIndexOptions {
  /** Vectors per vec0 chunk for tables created from now on. */
  chunkSize: number;
  /** Searches over more vectors of one size than this go through sign bits first. */
  exactLimit: number;
  /** Candidates a coarse search gathers per row asked for. */
  oversampling: number;
}

/** The most neighbours one vec0 query returns. */
export const MAX_K = 4096;

/** A 64-bit hash of an exact scope, given as its five column values. */
export function scopeHash(columns: readonly string[]): bigint {
  return createHash('sha256').update(JSON.stringify(columns)).digest().readBigInt64BE(0);
}

/** The hashes of every exact scope a read at `scope` may see. */
export function visibleScopeHashes(scope: Scope): bigint[] {
  return visibleScopeRows(scope).map(scopeHash);
}

/** Whether a vector has a direction (and so is in the index). */
export function isIndexable(norm: number | null): norm is number {
  return norm !== null && norm > 0 && Number.isFinite(norm);
}

function unitFloat32(vector: readonly number[], norm: number): Float32Array {
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = vector[i]! / norm;
  return out;
}

/** Bits per sign code: the size rounded up to a whole byte (vec0 bit vectors are whole bytes). */
function bitLength(dimensions: number): number {
  return Math.ceil(dimensions / 8) * 8;
}

/** One bit per dimension, set when the component is positive. */
export function signBits(vector: readonly number[]): Uint8Array {
  const out = new Uint8Array(bitLength(vector.length) / 8);
  for (let i = 0; i < vector.length; i++) if (vector[i]! > 0) out[i >> 3]! |= 1 << (i & 7);
  return out;
}

export function vectorTableName(dimensions: number): string {
  if (!Number.isInteger(dimensions) || dimensions < 1) throw new Error(`invalid vector size ${dimensions}`);
  return `scoped_vectors_${dimensions}`;
}

/** The vec0 table of one vector size, partitioned by scope hash. */
export function vectorTableSql(dimensions: number, chunkSize: number): string {
  return `CREATE VIRTUAL TABLE IF NOT EXISTS ${vectorTableName(dimensions)} USING vec0(
     scope_key INTEGER PARTITION KEY,
     status TEXT,
     access_level INTEGER,
     occurred_at INTEGER,
     embedding FLOAT[${dimensions}] DISTANCE_METRIC=l2,
     embedding_bits BIT[${bitLength(dimensions)}],
     chunk_size = ${chunkSize}
   )`;
}

/** Partitions the reader may see that hold vectors of a size, and how many vectors they hold. */
export interface VisiblePartitions {
  keys: bigint[];
  vectors: number;
}

export class VectorIndex {
  /** Sizes whose table is known to exist; cleared on rollback, which may undo a table's creation. */
  private readonly tables = new Set<number>();
  private readonly sql: Statements;
  private readonly codes: SignCodes;
  /** Byte-quantised copies of the indexed vectors, for re-ranking a coarse search's candidates. */
  readonly quantised: QuantisedVectors;
  readonly options: VectorIndexOptions;

  constructor(sql: Statements, options: VectorIndexOptions) {
    this.sql = sql;
    this.codes = new SignCodes(sql);
    this.quantised = new QuantisedVectors(sql);
    this.options = options;
  }

  forgetCachedTables(): void {
    this.tables.clear();
  }

  /** Whether a table exists for this size; looks in the schema when not cached (another process may have made it). */
  has(dimensions: number): boolean {
    if (this.tables.has(dimensions)) return true;
    const row = this.sql.get('SELECT 1 AS found FROM vector_indexes WHERE dimensions = ?', [dimensions]);
    if (row) this.tables.add(dimensions);
    return row !== undefined;
  }

  /** The partitions of the scopes visible from `scope` that hold vectors of this size. */
  visiblePartitions(dimensions: number, scope: Scope): VisiblePartitions {
    const hashes = visibleScopeHashes(scope);
    const where = inClause('scope_key', hashes);
    // Hashes use all 64 bits: read them as text (node:sqlite refuses integers past 2^53 as numbers).
    const rows = this.sql.all<{ scope_key: string; vectors: number }>(
      `SELECT CAST(scope_key AS TEXT) AS scope_key, vectors FROM vector_scopes
        WHERE dimensions = ? AND ${where.sql} AND vectors > 0`,
      [dimensions, ...where.params],
    );
    return {
      keys: rows.map((row) => BigInt(row.scope_key)),
      vectors: rows.reduce((sum, row) => sum + row.vectors, 0),
    };
  }

  add(entry: VectorEntry): void {
    if (!isIndexable(entry.norm)) return;
    const dimensions = entry.vector.length;
    const table = this.ensure(dimensions);
    const key = scopeHash(scopeValues(entry.scope));
    this.sql.run(
      `INSERT INTO ${table} (rowid, scope_key, status, access_level, occurred_at, embedding, embedding_bits)
       VALUES (?, ?, ?, ?, ?, ?, vec_bit(?))`,
      [
        BigInt(entry.rowId),
        key,
        entry.status,
        BigInt(entry.accessLevel),
        BigInt(entry.occurredAt),
        unitFloat32(entry.vector, entry.norm),
        signBits(entry.vector),
      ],
    );
    this.codes.add({ dimensions, scopeKey: key, rowId: entry.rowId, vector: entry.vector });
    this.quantised.add(entry.rowId, entry.vector, entry.norm);
    this.sql.run(
      `INSERT INTO vector_scopes (scope_key, dimensions, vectors) VALUES (?, ?, 1)
       ON CONFLICT (scope_key, dimensions) DO UPDATE SET vectors = vectors + 1`,
      [key, dimensions],
    );
  }

  /** Keeps the filter columns in step with the episode row. */
  update(dimensions: number, rowId: number, fields: { status: string; occurredAt: number }): void {
    if (!this.has(dimensions)) return;
    this.sql.run(`UPDATE ${vectorTableName(dimensions)} SET status = ?, occurred_at = ? WHERE rowid = ?`, [
      fields.status,
      BigInt(fields.occurredAt),
      BigInt(rowId),
    ]);
  }

  /** Removes indexed rows (those `add` stored: rows with a non-zero vector). */
  remove(dimensions: number, rows: ReadonlyArray<{ rowId: number; scope: Scope }>): void {
    if (rows.length === 0 || !this.has(dimensions)) return;
    const table = vectorTableName(dimensions);
    const perScope = new Map<bigint, Set<number>>();
    for (const row of rows) {
      this.sql.run(`DELETE FROM ${table} WHERE rowid = ?`, [BigInt(row.rowId)]);
      const key = scopeHash(scopeValues(row.scope));
      const ids = perScope.get(key) ?? new Set<number>();
      ids.add(row.rowId);
      perScope.set(key, ids);
    }
    for (const [key, rowIds] of perScope) {
      this.codes.remove({ dimensions, scopeKey: key, rowIds });
      this.quantised.remove(rowIds);
      this.sql.run('UPDATE vector_scopes SET vectors = vectors - ? WHERE scope_key = ? AND dimensions = ?', [
        rowIds.size,
        key,
        dimensions,
      ]);
    }
  }

  /**
   * Nearest row ids (nearest first, at most `k`) among rows of the given partitions passing the
   * filter columns.
   */
  search(query: VectorQuery): number[] {
    if (query.partitions.length === 0 || !this.has(query.dimensions)) return [];
    const norm = Math.sqrt(query.vector.reduce((sum, x) => sum + x * x, 0));
    if (!isIndexable(norm)) return [];
    if (query.coarse && !query.filterInIndex) {
      return this.codes.nearest({
        dimensions: query.dimensions,
        partitions: query.partitions,
        vector: query.vector,
        k: Math.min(query.k, MAX_K),
      });
    }
    const filters: Array<{ sql: string; params: SqlValue[] }> = [
      inClause('scope_key', query.partitions),
      inClause('status', query.statuses),
    ];
    if (query.accessLevel !== undefined) {
      filters.push({ sql: 'access_level <= ?', params: [BigInt(query.accessLevel)] });
    }
    if (query.since !== undefined) filters.push({ sql: 'occurred_at >= ?', params: [BigInt(query.since)] });
    if (query.until !== undefined) filters.push({ sql: 'occurred_at <= ?', params: [BigInt(query.until)] });
    const match = query.coarse ? 'embedding_bits MATCH vec_bit(?)' : 'embedding MATCH ?';
    const k = Math.min(query.k, MAX_K);
    // With several partitions vec0 finds k rows in each; the k nearest of them are the answer.
    const rows = this.sql.all<{ rowid: number }>(
      `SELECT rowid FROM ${vectorTableName(query.dimensions)}
       WHERE ${match} AND k = ? AND ${filters.map((f) => f.sql).join(' AND ')}
       ORDER BY distance`,
      [
        query.coarse ? signBits(query.vector) : unitFloat32(query.vector, norm),
        k,
        ...filters.flatMap((f) => f.params),
      ],
    );
    return rows.slice(0, k).map((r) => r.rowid);
  }

  private ensure(dimensions: number): string {
    const table = vectorTableName(dimensions);
    if (this.has(dimensions)) return table;
    this.sql.db.exec(vectorTableSql(dimensions, this.options.chunkSize));
    this.sql.run(
      'INSERT OR IGNORE INTO vector_indexes (dimensions, table_name, created_at) VALUES (?, ?, ?)',
      [dimensions, table, Date.now()],
    );
    this.tables.add(dimensions);
    return table;
  }
}
