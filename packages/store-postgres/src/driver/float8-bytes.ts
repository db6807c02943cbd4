/**
 * The exact float64 embedding as stored in `episodes.embedding_f8` (a `bytea`): each value as 8
 * big-endian IEEE 754 bytes, concatenated, which is what PostgreSQL's `float8send` writes per
 * element. Both directions copy bits, so every value (negative zero, subnormals, NaN) comes back
 * exactly, with no printing or parsing of decimals on either side.
 */

const BYTES_PER_VALUE = 8;

/**
 * The bytes of `values`, for a `bytea` parameter. node-postgres sends a Uint8Array (as a Buffer)
 * in binary format, so the server copies the bytes as they are; PGlite accepts it as well.
 */
export function encodeFloat8Bytes(values: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * BYTES_PER_VALUE);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat64(i * BYTES_PER_VALUE, values[i]!);
  return bytes;
}

/**
 * The values of a `bytea` read back: node-postgres hands it as a Buffer (often a view into a
 * larger one), PGlite as a Uint8Array.
 */
export function decodeFloat8Bytes(value: unknown): number[] {
  if (!(value instanceof Uint8Array)) throw new Error('expected the bytes of a float64 embedding');
  if (value.byteLength % BYTES_PER_VALUE !== 0)
    throw new Error(`expected a multiple of 8 bytes, got ${value.byteLength}`);
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  const out = new Array<number>(value.byteLength / BYTES_PER_VALUE);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * BYTES_PER_VALUE);
  return out;
}
