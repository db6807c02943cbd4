import { invalidInput } from '../errors/strata-error.ts';
import type { EncodedVector } from './snapshot-schema.ts';

/**
 * An embedding as base64 of little-endian floats: 32-bit when every value is exactly a 32-bit
 * float (no rounding then), else 64-bit.
 */
export function encodeVector(values: readonly number[]): EncodedVector {
  const single = values.every((v) => Math.fround(v) === v);
  const width = single ? 4 : 8;
  const bytes = Buffer.alloc(values.length * width);
  for (const [i, v] of values.entries()) {
    if (single) bytes.writeFloatLE(v, i * 4);
    else bytes.writeDoubleLE(v, i * 8);
  }
  const base64 = bytes.toString('base64');
  return single ? { float32: base64 } : { float64: base64 };
}

/** The numbers of an encoded embedding; a byte count that is not a whole number of floats is `invalid_input`. */
export function decodeVector(encoded: EncodedVector, where: string): number[] {
  const single = 'float32' in encoded;
  const bytes = Buffer.from(single ? encoded.float32 : encoded.float64, 'base64');
  const width = single ? 4 : 8;
  if (bytes.length === 0 || bytes.length % width !== 0) {
    throw invalidInput(`${where}: the embedding is not a whole number of ${width * 8}-bit floats`);
  }
  const out = new Array<number>(bytes.length / width);
  for (let i = 0; i < out.length; i++) out[i] = single ? bytes.readFloatLE(i * 4) : bytes.readDoubleLE(i * 8);
  return out;
}
