import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { unitVector, unitVectors } from './embedding-vectors.ts';

const where = 'testEmbedder(mock)';

function invalid(fn: () => unknown): StrataError {
  try {
    fn();
  } catch (error) {
    const found = StrataError.from(error);
    if (found?.code === 'model_output_invalid') return found;
    throw error;
  }
  throw new Error('expected model_output_invalid');
}

describe('unitVectors', () => {
  it('returns each vector scaled to unit length, in order', () => {
    const vectors = unitVectors({
      vectors: [[3, 4], new Float32Array([0, 2])],
      count: 2,
      dimensions: 2,
      where,
    });
    expect(vectors).toHaveLength(2);
    expect(vectors[0]![0]).toBeCloseTo(0.6, 12);
    expect(vectors[0]![1]).toBeCloseTo(0.8, 12);
    expect(vectors[1]).toEqual([0, 1]);
    expect(Array.isArray(vectors[1])).toBe(true);
  });

  it('rejects a wrong count, a wrong length, a non-array, zeros and non-finite numbers', () => {
    expect(
      invalid(() => unitVectors({ vectors: [[1, 0]], count: 2, dimensions: 2, where })).message,
    ).toContain('asked for 2 vectors, got 1');
    expect(invalid(() => unitVectors({ vectors: 'no', count: 1, dimensions: 2, where })).message).toContain(
      'got string',
    );
    expect(
      invalid(() => unitVectors({ vectors: [[1, 2, 3]], count: 1, dimensions: 2, where })).details,
    ).toEqual({
      index: 0,
      dimensions: 3,
      expected: 2,
    });
    expect(invalid(() => unitVectors({ vectors: [{}], count: 1, dimensions: 2, where })).message).toContain(
      'not an array',
    );
    expect(
      invalid(() => unitVectors({ vectors: [[0, 0]], count: 1, dimensions: 2, where })).message,
    ).toContain('all zeros');
    expect(invalid(() => unitVector([1, Number.NaN], where, 3)).details).toEqual({ index: 3 });
    expect(invalid(() => unitVector([1, '2'], where)).message).toContain('testEmbedder(mock): vector 0');
  });
});
