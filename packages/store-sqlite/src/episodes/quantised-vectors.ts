import type { Statements } from '../database/statements.ts';
import { inClause } from '../sql/scope-sql.ts';

/** The largest code: components are rounded to multiples of `scale` in -127..127. */
const LEVELS = 127;

/**
 * Slack added to every bound, far above the rounding of float64 sums over a few thousand
 * components and far below any gap between scores that matters.
 */
const ROUNDING_SLACK = 1e-9;

/** An indexed vector's unit vector rounded to bytes: `codes[i] * scale` approximates `v[i] / |v|`. */
export interface QuantisedVector {
  scale: number;
  /** Euclidean length of what rounding lost: the unit vector minus its approximation. */
  error: number;
  codes: Int8Array;
}

/** Quantises a vector of non-zero, finite `norm` (its Euclidean length). */
export function quantise(vector: ArrayLike<number>, norm: number): QuantisedVector {
  let largest = 0;
  for (let i = 0; i < vector.length; i++) largest = Math.max(largest, Math.abs(vector[i]! / norm));
  const scale = largest / LEVELS;
  const codes = new Int8Array(vector.length);
  let lost = 0;
  for (let i = 0; i < vector.length; i++) {
    const unit = vector[i]! / norm;
    const code = scale > 0 ? Math.round(unit / scale) : 0;
    codes[i] = code;
    lost += (unit - code * scale) ** 2;
  }
  return { scale, error: Math.sqrt(lost), codes };
}

/**
 * The highest cosine a quantised vector may have with a unit query `unit`, whose components'
 * absolute values sum to `unitL1`. The cosine with the vector is its unit vector's dot product
 * with the query: the approximation's, plus the dot product of what rounding lost with the query,
 * which is at most the loss's length (the query has length 1) and at most half a step per
 * component.
 */
export function cosineUpperBound(q: QuantisedVector, unit: Float64Array, unitL1: number): number {
  let dot = 0;
  for (let i = 0; i < unit.length; i++) dot += q.codes[i]! * unit[i]!;
  const lost = Math.min(q.error, (q.scale / 2) * unitL1);
  return dot * q.scale + lost + ROUNDING_SLACK;
}

interface Row {
  row_id: number;
  scale: number;
  error: number;
  codes: Uint8Array;
}

/**
 * Byte-quantised copies of the indexed vectors, one row per episode row (`quantised_vectors`), so
 * a coarse vector search can bound each candidate's cosine from 1 byte per component and read the
 * float64 embeddings of the few candidates that may still make the answer.
 */
export class QuantisedVectors {
  private readonly sql: Statements;

  constructor(sql: Statements) {
    this.sql = sql;
  }

  add(rowId: number, vector: ArrayLike<number>, norm: number): void {
    const q = quantise(vector, norm);
    this.sql.run(
      'INSERT OR REPLACE INTO quantised_vectors (row_id, scale, error, codes) VALUES (?, ?, ?, ?)',
      [rowId, q.scale, q.error, new Uint8Array(q.codes.buffer, q.codes.byteOffset, q.codes.byteLength)],
    );
  }

  remove(rowIds: Iterable<number>): void {
    for (const rowId of rowIds) this.sql.run('DELETE FROM quantised_vectors WHERE row_id = ?', [rowId]);
  }

  /** The quantised vectors of `rowIds` that have one, by row id. */
  load(rowIds: readonly number[]): Map<number, QuantisedVector> {
    if (rowIds.length === 0) return new Map();
    const where = inClause('row_id', rowIds);
    const rows = this.sql.all<Row>(
      `SELECT row_id, scale, error, codes FROM quantised_vectors WHERE ${where.sql}`,
      where.params,
    );
    return new Map(
      rows.map((row) => [
        row.row_id,
        {
          scale: row.scale,
          error: row.error,
          codes: new Int8Array(row.codes.buffer, row.codes.byteOffset, row.codes.byteLength),
        },
      ]),
    );
  }
}
