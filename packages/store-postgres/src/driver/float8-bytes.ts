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
 * The values of a `bytea` read as `encode(embedding_f8, 'base64')`. Reading the column as it is
 * (hex in the text protocol) sends twice its bytes, and parsing hex in Node took about three times
 * as long as decoding base64 (see `selectColumns` in episodes.ts).
 */
export function decodeFloat8Base64(value: unknown): number[] {
  if (typeof value !== 'string') throw new Error('expected the base64 bytes of a float64 embedding');
  // Node skips the line breaks PostgreSQL puts every 76 characters. The text comes from the
  // store's own `encode`: checking its alphabet here took longer than decoding it.
  return decodeFloat8Bytes(Buffer.from(value, 'base64'));
}

/** The values of a `bytea`'s bytes: a Buffer (often a view into a larger one) or a Uint8Array. */
export function decodeFloat8Bytes(value: unknown): number[] {
  if (!(value instanceof Uint8Array)) throw new Error('expected the bytes of a float64 embedding');
  if (value.byteLength % BYTES_PER_VALUE !== 0)
    throw new Error(`expected a multiple of 8 bytes, got ${value.byteLength}`);
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  const out = new Array<number>(value.byteLength / BYTES_PER_VALUE);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * BYTES_PER_VALUE);
  return out;
}
