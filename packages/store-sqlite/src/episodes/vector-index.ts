import { createHash } from 'node:crypto';
import type { Scope } from '@strata-memory/core';
import type { Statements } from '../database/statements.ts';
import { inClause, type SqlValue, scopeValues, visibleScopeColumns } from '../sql/scope-sql.ts';

/**
 * Episode embeddings in sqlite-vec `vec0` tables, one per vector size, created on first use.
 *
 * Each table is partitioned by tenant (a vec0 partition key), so a search reads only the
 * reader's tenant's vectors. Within it, metadata columns carry what the read filter needs: the
 * hash of the row's exact scope, its status, access level and time. A search passes the hashes of
 * every scope visible to the reader (at most 16: each level unset or the reader's), so vec0's
 * top-k already holds only visible rows, however many nearer vectors other scopes hold. The caller
 * still checks every returned row against the episodes table with the exact SQL filter (a hash can
 * collide) and asks for more when rows fall out.
 *
 * Each row holds its vector twice: unit-length float32, compared by L2 distance (on unit vectors
 * the same order as cosine, at half the arithmetic), and as sign bits, compared by Hamming
 * distance at a fraction of the cost. sqlite-vec 0.1 searches by brute force, so a tenant with
 * more vectors than `exactLimit` is searched through its sign bits for `oversampling` times the
 * rows asked for, and the caller re-ranks those by exact cosine; smaller tenants are searched
 * exactly. `vector_partitions` counts each tenant's vectors to choose. Zero vectors have no
 * direction and are not indexed (their score is 0).
 */
export interface VectorEntry {
  rowId: number;
  scope: Scope;
  tenant: string;
  status: string;
  accessLevel: number;
  occurredAt: number;
  vector: readonly number[];
  norm: number;
}

export interface VectorQuery {
  dimensions: number;
  scope: Scope;
  tenant: string;
  statuses: readonly string[];
  accessLevel?: number;
  since?: number;
  until?: number;
  vector: readonly number[];
  k: number;
  /** Search the sign bits (approximate) instead of the float vectors. */
  coarse: boolean;
}

export interface VectorIndexOptions {
  /** Vectors per vec0 chunk for tables created from now on. */
  chunkSize: number;
  /** Tenants with more vectors of one size than this are searched through sign bits first. */
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
  return visibleScopeColumns(scope).map(scopeHash);
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
  return `episode_vectors_${dimensions}`;
}

export class VectorIndex {
  /** Sizes whose table is known to exist; cleared on rollback, which may undo a table's creation. */
  private readonly tables = new Set<number>();
  private readonly sql: Statements;
  readonly options: VectorIndexOptions;

  constructor(sql: Statements, options: VectorIndexOptions) {
    this.sql = sql;
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

  /** Vectors of this size the tenant holds, in every scope and status. */
  partitionSize(dimensions: number, tenant: string): number {
    const row = this.sql.get<{ vectors: number }>(
      'SELECT vectors FROM vector_partitions WHERE tenant = ? AND dimensions = ?',
      [tenant, dimensions],
    );
    return row?.vectors ?? 0;
  }

  add(entry: VectorEntry): void {
    if (!isIndexable(entry.norm)) return;
    const dimensions = entry.vector.length;
    const table = this.ensure(dimensions);
    this.sql.run(
      `INSERT INTO ${table} (rowid, tenant, scope_hash, status, access_level, occurred_at, embedding, embedding_bits)
       VALUES (?, ?, ?, ?, ?, ?, ?, vec_bit(?))`,
      [
        BigInt(entry.rowId),
        entry.tenant,
        scopeHash(scopeValues(entry.scope)),
        entry.status,
        BigInt(entry.accessLevel),
        BigInt(entry.occurredAt),
        unitFloat32(entry.vector, entry.norm),
        signBits(entry.vector),
      ],
    );
    this.sql.run(
      `INSERT INTO vector_partitions (tenant, dimensions, vectors) VALUES (?, ?, 1)
       ON CONFLICT (tenant, dimensions) DO UPDATE SET vectors = vectors + 1`,
      [entry.tenant, dimensions],
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
  remove(dimensions: number, rows: ReadonlyArray<{ rowId: number; tenant: string }>): void {
    if (rows.length === 0 || !this.has(dimensions)) return;
    const table = vectorTableName(dimensions);
    const perTenant = new Map<string, number>();
    for (const row of rows) {
      this.sql.run(`DELETE FROM ${table} WHERE rowid = ?`, [BigInt(row.rowId)]);
      perTenant.set(row.tenant, (perTenant.get(row.tenant) ?? 0) + 1);
    }
    for (const [tenant, count] of perTenant) {
      this.sql.run('UPDATE vector_partitions SET vectors = vectors - ? WHERE tenant = ? AND dimensions = ?', [
        count,
        tenant,
        dimensions,
      ]);
    }
  }

  /** Nearest row ids (nearest first) among rows passing the filter columns. */
  search(query: VectorQuery): number[] {
    if (!this.has(query.dimensions)) return [];
    const norm = Math.sqrt(query.vector.reduce((sum, x) => sum + x * x, 0));
    if (!isIndexable(norm)) return [];
    const filters: Array<{ sql: string; params: SqlValue[] }> = [
      { sql: 'tenant = ?', params: [query.tenant] },
      inClause('scope_hash', visibleScopeHashes(query.scope)),
      inClause('status', query.statuses),
    ];
    if (query.accessLevel !== undefined) {
      filters.push({ sql: 'access_level <= ?', params: [BigInt(query.accessLevel)] });
    }
    if (query.since !== undefined) filters.push({ sql: 'occurred_at >= ?', params: [BigInt(query.since)] });
    if (query.until !== undefined) filters.push({ sql: 'occurred_at <= ?', params: [BigInt(query.until)] });
    const match = query.coarse ? 'embedding_bits MATCH vec_bit(?)' : 'embedding MATCH ?';
    const rows = this.sql.all<{ rowid: number }>(
      `SELECT rowid FROM ${vectorTableName(query.dimensions)}
       WHERE ${match} AND k = ? AND ${filters.map((f) => f.sql).join(' AND ')}
       ORDER BY distance`,
      [
        query.coarse ? signBits(query.vector) : unitFloat32(query.vector, norm),
        Math.min(query.k, MAX_K),
        ...filters.flatMap((f) => f.params),
      ],
    );
    return rows.map((r) => r.rowid);
  }

  private ensure(dimensions: number): string {
    const table = vectorTableName(dimensions);
    if (this.has(dimensions)) return table;
    this.sql.db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(
         tenant TEXT PARTITION KEY,
         scope_hash INTEGER,
         status TEXT,
         access_level INTEGER,
         occurred_at INTEGER,
         embedding FLOAT[${dimensions}] DISTANCE_METRIC=l2,
         embedding_bits BIT[${bitLength(dimensions)}],
         chunk_size = ${this.options.chunkSize}
       )`,
    );
    this.sql.run(
      'INSERT OR IGNORE INTO vector_indexes (dimensions, table_name, created_at) VALUES (?, ?, ?)',
      [dimensions, table, Date.now()],
    );
    this.tables.add(dimensions);
    return table;
  }
}
