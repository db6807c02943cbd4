import { StrataError } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { unitVector } from './unit-vector.ts';

describe('unitVector', () => {
  it('scales to length 1 and keeps direction', () => {
    const v = unitVector(new Float32Array([3, 4]), 'm');
    expect(v[0]).toBeCloseTo(0.6, 12);
    expect(v[1]).toBeCloseTo(0.8, 12);
  });

  it('rejects zero and non-finite vectors as invalid model output', () => {
    for (const bad of [
      [0, 0],
      [1, Number.NaN],
      [Number.POSITIVE_INFINITY, 1],
    ]) {
      try {
        unitVector(bad, 'm');
        expect.unreachable();
      } catch (error) {
        expect(StrataError.hasCode(error, 'model_output_invalid')).toBe(true);
      }
    }
  });
});
