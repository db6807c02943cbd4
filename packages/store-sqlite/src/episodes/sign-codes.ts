import type { Statements } from '../database/statements.ts';
import { inClause } from '../sql/scope-sql.ts';

/** Codes per block row: an append rewrites one block of at most this many. */
export const CODES_PER_BLOCK = 128;

/** Bytes of one sign code: one bit per dimension, in whole 32-bit words. */
export function codeBytes(dimensions: number): number {
  return Math.ceil(dimensions / 32) * 4;
}

/** One bit per dimension, set when the component is positive, padded to whole 32-bit words. */
export function signCode(vector: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(codeBytes(vector.length));
  for (let i = 0; i < vector.length; i++) if (vector[i]! > 0) out[i >> 3]! |= 1 << (i & 7);
  return out;
}

function popcount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A blob as 32-bit words (a view when aligned, else a copy). */
function words(blob: Uint8Array): Uint32Array {
  const aligned = blob.byteOffset % 4 === 0 ? blob : Uint8Array.from(blob);
  return new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 4);
}

/** A blob of float64 row ids (a view when aligned, else a copy). */
function rowIdsOf(blob: Uint8Array): Float64Array {
  const aligned = blob.byteOffset % 8 === 0 ? blob : Uint8Array.from(blob);
  return new Float64Array(aligned.buffer, aligned.byteOffset, aligned.byteLength / 8);
}

function bytesOf(array: Float64Array | Uint32Array | Uint8Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

interface Block {
  block: number;
  row_ids: Uint8Array;
  codes: Uint8Array;
}

/**
 * The sign-bit codes of indexed vectors, packed by partition (vector size and scope hash) into
 * blocks of up to `CODES_PER_BLOCK` rows: row ids as float64, codes as 32-bit words. A coarse
 * search reads a partition's codes in a few hundred rows however many vectors it holds, ranks them
 * by Hamming distance in process and picks the nearest by counting (distances are small integers),
 * so its cost grows with the vectors read, not with how many it returns.
 *
 * It mirrors the rows of the vec0 tables (the same rows, the same partitions) and holds no filter
 * columns: the caller checks candidates against the episodes table and asks for more when rows
 * fall out.
 */
export class SignCodes {
  private readonly sql: Statements;
  /** Row ids and distances of the codes a search has read so far (grown, never shrunk). */
  private rowIds = new Float64Array(0);
  private distances = new Uint16Array(0);

  constructor(sql: Statements) {
    this.sql = sql;
  }

  /** Appends a row's code to the last block of its partition, or starts a new block. */
  add(args: { dimensions: number; scopeKey: bigint; rowId: number; vector: ArrayLike<number> }): void {
    const code = signCode(args.vector);
    const last = this.sql.get<Block>(
      `SELECT block, row_ids, codes FROM vector_code_blocks
        WHERE dimensions = ? AND scope_key = ? ORDER BY block DESC LIMIT 1`,
      [args.dimensions, args.scopeKey],
    );
    const rowId = bytesOf(Float64Array.of(args.rowId));
    if (last && last.row_ids.byteLength / 8 < CODES_PER_BLOCK) {
      this.sql.run(
        `UPDATE vector_code_blocks SET row_ids = ?, codes = ?
          WHERE dimensions = ? AND scope_key = ? AND block = ?`,
        [concat(last.row_ids, rowId), concat(last.codes, code), args.dimensions, args.scopeKey, last.block],
      );
      return;
    }
    this.sql.run(
      'INSERT INTO vector_code_blocks (dimensions, scope_key, block, row_ids, codes) VALUES (?, ?, ?, ?, ?)',
      [args.dimensions, args.scopeKey, last ? last.block + 1 : 0, rowId, code],
    );
  }

  /** Removes rows from one partition: blocks holding them are rewritten, emptied ones dropped. */
  remove(args: { dimensions: number; scopeKey: bigint; rowIds: ReadonlySet<number> }): void {
    const width = codeBytes(args.dimensions);
    const blocks = this.sql.all<Block>(
      'SELECT block, row_ids, codes FROM vector_code_blocks WHERE dimensions = ? AND scope_key = ?',
      [args.dimensions, args.scopeKey],
    );
    for (const { block, row_ids, codes } of blocks) {
      const ids = rowIdsOf(row_ids);
      const keep: number[] = [];
      for (let i = 0; i < ids.length; i++) if (!args.rowIds.has(ids[i]!)) keep.push(i);
      if (keep.length === ids.length) continue;
      const key = [args.dimensions, args.scopeKey, block];
      if (keep.length === 0) {
        this.sql.run(
          'DELETE FROM vector_code_blocks WHERE dimensions = ? AND scope_key = ? AND block = ?',
          key,
        );
        continue;
      }
      const keptCodes = new Uint8Array(keep.length * width);
      for (const [to, from] of keep.entries()) {
        keptCodes.set(codes.subarray(from * width, (from + 1) * width), to * width);
      }
      this.sql.run(
        'UPDATE vector_code_blocks SET row_ids = ?, codes = ? WHERE dimensions = ? AND scope_key = ? AND block = ?',
        [bytesOf(Float64Array.from(keep, (i) => ids[i]!)), keptCodes, ...key],
      );
    }
  }

  /**
   * Row ids of the partitions' `k` codes nearest to the query's by Hamming distance, nearest
   * first (ties in storage order).
   */
  nearest(args: {
    dimensions: number;
    partitions: readonly bigint[];
    vector: ArrayLike<number>;
    k: number;
  }): number[] {
    if (args.partitions.length === 0 || args.k <= 0) return [];
    const where = inClause('scope_key', args.partitions);
    const blocks = this.sql
      .prepare(`SELECT row_ids, codes FROM vector_code_blocks WHERE dimensions = ? AND ${where.sql}`)
      .iterate(args.dimensions, ...where.params) as Iterable<Pick<Block, 'row_ids' | 'codes'>>;
    const query = words(signCode(args.vector));
    const stride = query.length;
    const histogram = new Uint32Array(stride * 32 + 1);
    // Blocks are read one at a time and dropped: only row ids and distances are kept.
    let total = 0;
    for (const block of blocks) {
      const count = block.row_ids.byteLength / 8;
      this.reserve(total + count);
      this.rowIds.set(rowIdsOf(block.row_ids), total);
      const codes = words(block.codes);
      for (let offset = 0, n = total; offset < codes.length; offset += stride, n++) {
        let distance = 0;
        for (let w = 0; w < stride; w++) distance += popcount(codes[offset + w]! ^ query[w]!);
        this.distances[n] = distance;
        histogram[distance]!++;
      }
      total += count;
    }
    // The largest distance that still makes the k nearest, and how many at it are taken.
    const k = Math.min(args.k, total);
    let cutoff = 0;
    let taken = 0;
    while (taken + histogram[cutoff]! < k) taken += histogram[cutoff++]!;
    let atCutoff = k - taken;
    // Counting sort of the chosen rows by distance: starts[d] is where distance d's rows go.
    const starts = new Uint32Array(cutoff + 2);
    for (let d = 0; d < cutoff; d++) starts[d + 1] = starts[d]! + histogram[d]!;
    const out = new Array<number>(k);
    for (let i = 0; i < total; i++) {
      const d = this.distances[i]!;
      if (d > cutoff) continue;
      if (d === cutoff) {
        if (atCutoff === 0) continue;
        atCutoff--;
      }
      out[starts[d]!++] = this.rowIds[i]!;
    }
    return out;
  }

  /** Room for `n` row ids and distances in the buffers searches reuse. */
  private reserve(n: number): void {
    if (n <= this.rowIds.length) return;
    const size = Math.max(n, this.rowIds.length * 2);
    const rowIds = new Float64Array(size);
    rowIds.set(this.rowIds);
    this.rowIds = rowIds;
    const distances = new Uint16Array(size);
    distances.set(this.distances);
    this.distances = distances;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}
