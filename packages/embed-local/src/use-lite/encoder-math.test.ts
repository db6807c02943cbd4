import { describe, expect, it } from 'vitest';
import { addInto, layerNorm, selfAttention, timingSignal } from './encoder-math.ts';

describe('layerNorm', () => {
  it('centres and scales each row, then applies scale and bias per column', () => {
    const out = layerNorm({
      x: Float32Array.from([1, 3, 10, 10]),
      width: 2,
      scale: Float32Array.from([2, 1]),
      bias: Float32Array.from([0, 5]),
      epsilon: 0,
    });
    expect(Array.from(out.subarray(0, 2))).toEqual([-2, 6]);
    // A constant row has no variance: epsilon 0 would divide by zero, so rows must not be constant here.
    expect(Number.isNaN(out[2])).toBe(true);
  });
});

describe('selfAttention', () => {
  // Width 2, one head: per token q (2), k (2), v (2).
  it('returns the value of a text of one token', () => {
    const qkv = Float32Array.from([1, 0, 1, 0, 7, 9]);
    expect(Array.from(selfAttention({ qkv, lengths: [1], width: 2, heads: 1, queryScale: 1 }))).toEqual([
      7, 9,
    ]);
  });

  it('averages values by softmax weight, only within each text', () => {
    const qkv = Float32Array.from([
      // text 1, two tokens with equal keys: equal weights
      1, 0, 1, 0, 2, 0, 1, 0, 1, 0, 4, 0,
      // text 2, one token: only itself
      1, 1, 5, 5, 3, 3,
    ]);
    const out = selfAttention({ qkv, lengths: [2, 1], width: 2, heads: 1, queryScale: 1 });
    expect(Array.from(out)).toEqual([3, 0, 3, 0, 3, 3]);
  });

  it('gives each head its own slice of the queries, keys and values', () => {
    // Width 2, two heads of depth 1; token 2's key matches head 0 strongly, token 1's head 1.
    const qkv = Float32Array.from([1, 1, 0, 10, 1, 2, 1, 1, 10, 0, 3, 4]);
    const out = selfAttention({ qkv, lengths: [2], width: 2, heads: 2, queryScale: 1 });
    expect(out[0]).toBeCloseTo(3, 3); // head 0 attends to token 2's value 3
    expect(out[1]).toBeCloseTo(2, 3); // head 1 attends to token 1's value 2
  });
});

describe('timingSignal', () => {
  it('is sin then cos of position times each inverse timescale', () => {
    const signal = timingSignal(3, Float32Array.from([1, 0.5]));
    expect(Array.from(signal.subarray(0, 4))).toEqual([0, 0, 1, 1]);
    expect(signal[2 * 4 + 0]).toBeCloseTo(Math.sin(2), 6);
    expect(signal[2 * 4 + 1]).toBeCloseTo(Math.sin(1), 6);
    expect(signal[2 * 4 + 3]).toBeCloseTo(Math.cos(1), 6);
  });
});

describe('addInto', () => {
  it('adds in place', () => {
    const x = Float32Array.from([1, 2]);
    expect(addInto(x, Float32Array.from([3, 4]))).toBe(x);
    expect(Array.from(x)).toEqual([4, 6]);
  });
});
