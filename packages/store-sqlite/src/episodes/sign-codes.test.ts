import { describe, expect, it } from 'vitest';
import { openDatabase } from '../database/open-database.ts';
import { Statements } from '../database/statements.ts';
import { migrate } from '../schema/migrations.ts';
import { CODES_PER_BLOCK, SignCodes, signCode } from './sign-codes.ts';

const DIMENSIONS = 40;

function openCodes(): { codes: SignCodes; sql: Statements; close(): void } {
  const db = openDatabase({ path: ':memory:', busyTimeoutMs: 0, synchronous: 'normal', cacheSizeMb: 8 });
  migrate(db);
  const sql = new Statements(db);
  return { codes: new SignCodes(sql), sql, close: () => db.close() };
}

/** A deterministic vector whose signs follow the bits of `seed`. */
function vectorOf(seed: number): number[] {
  return Array.from({ length: DIMENSIONS }, (_, i) =>
    ((seed * 2654435761 + i * 40503) >>> (i % 17)) & 1 ? 0.5 : -0.5,
  );
}

function hamming(a: number[], b: number[]): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) if (a[i]! > 0 !== b[i]! > 0) d++;
  return d;
}

describe('sign codes packed in blocks', () => {
  it('codes one bit per dimension, padded to whole 32-bit words', () => {
    const code = signCode([1, -1, 0, 2, ...Array<number>(32).fill(-1), 3]);
    expect(code.byteLength).toBe(8);
    expect([...code]).toEqual([0b1001, 0, 0, 0, 0b10000, 0, 0, 0]);
  });

  it('returns the k nearest rows of the asked partitions by Hamming distance, nearest first, across blocks', () => {
    const { codes, close } = openCodes();
    const rows = CODES_PER_BLOCK * 2 + 17;
    const vectors = new Map<number, number[]>();
    for (let rowId = 1; rowId <= rows; rowId++) {
      const vector = vectorOf(rowId);
      vectors.set(rowId, vector);
      // Odd rows in partition 7, even rows in partition -3 (a negative 64-bit hash).
      codes.add({ dimensions: DIMENSIONS, scopeKey: rowId % 2 ? 7n : -3n, rowId, vector });
    }
    const query = vectorOf(5_000);
    const found = codes.nearest({ dimensions: DIMENSIONS, partitions: [7n], vector: query, k: 25 });

    const odd = [...vectors].filter(([rowId]) => rowId % 2 === 1);
    const expected = odd
      .map(([, v]) => hamming(v, query))
      .sort((a, b) => a - b)
      .slice(0, 25);
    expect(found).toHaveLength(25);
    expect(found.every((rowId) => rowId % 2 === 1)).toBe(true);
    expect(new Set(found).size).toBe(25);
    expect(found.map((rowId) => hamming(vectors.get(rowId)!, query))).toEqual(expected);
    expect(
      codes.nearest({ dimensions: DIMENSIONS, partitions: [7n, -3n], vector: query, k: rows + 5 }),
    ).toHaveLength(rows);
    expect(codes.nearest({ dimensions: DIMENSIONS + 8, partitions: [7n], vector: query, k: 5 })).toEqual([]);
    close();
  });

  it('forgets removed rows, drops emptied blocks and keeps appending after them', () => {
    const { codes, sql, close } = openCodes();
    const blocks = () =>
      sql.get<{ n: number }>('SELECT count(*) AS n FROM vector_code_blocks WHERE scope_key = 1')!.n;
    const total = CODES_PER_BLOCK + 3;
    for (let rowId = 1; rowId <= total; rowId++) {
      codes.add({ dimensions: DIMENSIONS, scopeKey: 1n, rowId, vector: vectorOf(rowId) });
    }
    expect(blocks()).toBe(2);
    // Every row of the second block and half of the first.
    const removed = new Set<number>();
    for (let rowId = 1; rowId <= total; rowId++)
      if (rowId > CODES_PER_BLOCK || rowId % 2 === 0) removed.add(rowId);
    codes.remove({ dimensions: DIMENSIONS, scopeKey: 1n, rowIds: removed });
    expect(blocks()).toBe(1);
    const all = codes.nearest({ dimensions: DIMENSIONS, partitions: [1n], vector: vectorOf(1), k: total });
    expect(all.sort((a, b) => a - b)).toEqual(
      Array.from({ length: total }, (_, i) => i + 1).filter((rowId) => !removed.has(rowId)),
    );
    expect(all[0]).toBe(1);

    codes.add({ dimensions: DIMENSIONS, scopeKey: 1n, rowId: 1_000, vector: vectorOf(1_000) });
    expect(
      codes.nearest({ dimensions: DIMENSIONS, partitions: [1n], vector: vectorOf(1_000), k: 1 }),
    ).toEqual([1_000]);
    close();
  });
});
