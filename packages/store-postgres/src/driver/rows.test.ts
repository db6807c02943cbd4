import { describe, expect, it } from 'vitest';
import { decodeFloat8Array } from './rows.ts';

/** The binary float8[] PostgreSQL's array_send writes, built by hand. */
function arraySend(values: number[]): Uint8Array {
  const buffer = Buffer.alloc(20 + values.length * 12);
  buffer.writeInt32BE(1, 0); // dimensions
  buffer.writeInt32BE(0, 4); // no nulls
  buffer.writeInt32BE(701, 8); // float8
  buffer.writeInt32BE(values.length, 12);
  buffer.writeInt32BE(1, 16); // lower bound
  values.forEach((value, i) => {
    buffer.writeInt32BE(8, 20 + i * 12);
    buffer.writeDoubleBE(value, 24 + i * 12);
  });
  return buffer;
}

describe('decodeFloat8Array', () => {
  it('reads every element back bit for bit, from a Buffer or a plain Uint8Array', () => {
    const values = [0.1, -2.5e-308, 1 / 3, Number.MAX_VALUE, 0, -0.000123456789];
    expect(decodeFloat8Array(arraySend(values))).toEqual(values);
    const copy = new Uint8Array(arraySend(values));
    expect(decodeFloat8Array(copy)).toEqual(values);
    // A view into a larger buffer, as pooled Buffers are.
    const padded = Buffer.concat([Buffer.alloc(7), arraySend(values)]);
    expect(decodeFloat8Array(padded.subarray(7))).toEqual(values);
  });

  it('reads an empty array and refuses what is not a one-dimensional float8[]', () => {
    expect(decodeFloat8Array(Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 189]))).toEqual([]);
    expect(() => decodeFloat8Array('[1,2]')).toThrow();
    const twoDimensions = arraySend([1, 2]);
    twoDimensions[3] = 2;
    expect(() => decodeFloat8Array(twoDimensions)).toThrow();
  });
});
