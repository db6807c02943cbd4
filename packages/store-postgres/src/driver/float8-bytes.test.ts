import { describe, expect, it } from 'vitest';
import { decodeFloat8Base64, decodeFloat8Bytes, encodeFloat8Bytes } from './float8-bytes.ts';

/** What PostgreSQL's float8send writes for each value, concatenated: 8 big-endian bytes apiece. */
function float8send(values: number[]): Buffer {
  const buffer = Buffer.alloc(values.length * 8);
  values.forEach((value, i) => {
    buffer.writeDoubleBE(value, i * 8);
  });
  return buffer;
}

/** The bit pattern of each value, so negative zero and NaN payloads compare exactly. */
function bits(values: number[]): string[] {
  return [...float8send(values).toString('hex').matchAll(/.{16}/g)].map((match) => match[0]);
}

describe('encodeFloat8Bytes / decodeFloat8Bytes / decodeFloat8Base64', () => {
  const awkward = [
    0.1, // not a float32: Math.fround(0.1) differs
    1 / 3,
    0.1 + 0.2,
    16_777_217, // 2^24 + 1, the first integer float32 rounds
    -0,
    5e-324, // the smallest subnormal
    2.2250738585072009e-308, // the largest subnormal
    -Number.MIN_VALUE,
    Number.MAX_VALUE,
    -1e300,
    1 + Number.EPSILON,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NaN,
  ];

  it('writes what float8send writes, 8 big-endian bytes per value', () => {
    expect(Buffer.from(encodeFloat8Bytes(awkward)).equals(float8send(awkward))).toBe(true);
    expect(encodeFloat8Bytes([1])).toEqual(new Uint8Array([0x3f, 0xf0, 0, 0, 0, 0, 0, 0]));
  });

  it('reads every value back bit for bit, those float32 would change included', () => {
    for (const value of awkward.filter((x) => Number.isFinite(x) && x !== 0)) {
      expect(Math.fround(value)).not.toBe(value);
    }
    const back = decodeFloat8Bytes(encodeFloat8Bytes(awkward));
    expect(bits(back)).toEqual(bits(awkward));
    expect(Object.is(back[4], -0)).toBe(true);
    expect(back[5]).toBe(5e-324);
  });

  it('round-trips 4096 dimensions exactly', () => {
    let seed = 42;
    const random = () => {
      seed = (Math.imul(seed, 1_664_525) + 1_013_904_223) >>> 0;
      return seed / 2 ** 32;
    };
    const values = Array.from(
      { length: 4096 },
      () => (random() - 0.5) * 10 ** Math.floor(random() * 40 - 20),
    );
    const bytes = encodeFloat8Bytes(values);
    expect(bytes.byteLength).toBe(4096 * 8);
    expect(decodeFloat8Bytes(bytes)).toEqual(values);
  });

  it('reads a Buffer, a view into a larger buffer (as pooled Buffers are) and a plain Uint8Array', () => {
    const values = [0.6, 0.8, -0.000123456789];
    expect(decodeFloat8Bytes(float8send(values))).toEqual(values);
    const padded = Buffer.concat([Buffer.alloc(7, 0xff), float8send(values), Buffer.alloc(5, 0xff)]);
    expect(decodeFloat8Bytes(padded.subarray(7, 7 + 24))).toEqual(values);
    expect(decodeFloat8Bytes(new Uint8Array(float8send(values)))).toEqual(values);
  });

  it('reads no bytes as no values and refuses anything that is not whole float64s', () => {
    expect(encodeFloat8Bytes([]).byteLength).toBe(0);
    expect(decodeFloat8Bytes(new Uint8Array())).toEqual([]);
    expect(() => decodeFloat8Bytes(new Uint8Array(12))).toThrow(/multiple of 8/);
    expect(() => decodeFloat8Bytes('\\x3ff0000000000000')).toThrow();
    expect(() => decodeFloat8Bytes([1])).toThrow();
  });

  it("reads base64 as PostgreSQL's encode writes it, a line break every 76 characters", () => {
    const values = Array.from({ length: 384 }, (_, i) => Math.sin(i) / (i + 1));
    const base64 = float8send(values).toString('base64');
    const lines = base64.replace(/.{76}/g, '$&\n');
    expect(lines.split('\n').length).toBeGreaterThan(40);
    expect(bits(decodeFloat8Base64(lines))).toEqual(bits(values));
    expect(bits(decodeFloat8Base64(float8send(awkward).toString('base64')))).toEqual(bits(awkward));
    expect(decodeFloat8Base64('')).toEqual([]);
    expect(() => decodeFloat8Base64(float8send(values))).toThrow(/base64/);
    expect(() => decodeFloat8Base64('AAAA')).toThrow(/multiple of 8/);
  });
});
