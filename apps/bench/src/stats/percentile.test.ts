import { describe, expect, it } from 'vitest';
import { latencySummary, percentile } from './percentile.ts';

describe('percentile', () => {
  it('interpolates between closest ranks', () => {
    const values = [5, 1, 4, 2, 3];
    expect(percentile(values, 0)).toBe(1);
    expect(percentile(values, 50)).toBe(3);
    expect(percentile(values, 100)).toBe(5);
    expect(percentile(values, 95)).toBeCloseTo(4.8);
    expect(percentile([10, 20], 50)).toBe(15);
  });

  it('is NaN for no values and rejects p outside 0..100', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });

  it('summarises latencies as p50 and p95', () => {
    const values = Array.from({ length: 101 }, (_, i) => i);
    expect(latencySummary(values)).toEqual({ p50: 50, p95: 95 });
  });
});
