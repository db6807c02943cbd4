import { modelOutputInvalid } from '../extract/model-errors.ts';

/**
 * Checking what an embedding model returned before the engine stores or searches with it: the
 * `Embedder` port promises one finite, unit-length vector of `dimensions` numbers per text, in
 * order. Bridges from a framework's embedding model run its answer through `unitVectors`.
 */

/**
 * Scales `values` to Euclidean length 1 (computed in float64). A zero vector or a non-finite
 * number is `model_output_invalid`.
 */
export function unitVector(values: ArrayLike<unknown>, where: string, index = 0): number[] {
  let sumOfSquares = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw modelOutputInvalid(where, `vector ${index} holds a non-finite number`, { index });
    }
    sumOfSquares += value * value;
  }
  if (sumOfSquares === 0) throw modelOutputInvalid(where, `vector ${index} is all zeros`, { index });
  const scale = 1 / Math.sqrt(sumOfSquares);
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = (values[i] as number) * scale;
  return out;
}

/**
 * A model's vectors for `count` texts, checked and returned unit-length: an array of exactly
 * `count` arrays of exactly `dimensions` finite numbers, none all zeros. Anything else is
 * `model_output_invalid` (with `index`, `dimensions` and `expected` in the details where they apply).
 */
export function unitVectors(args: {
  vectors: unknown;
  count: number;
  dimensions: number;
  /** Who is asking, for the error message, e.g. `aiSdkEmbedder(openai:text-embedding-3-small)`. */
  where: string;
}): number[][] {
  const { vectors, count, dimensions, where } = args;
  if (!Array.isArray(vectors) || vectors.length !== count) {
    const got = Array.isArray(vectors) ? vectors.length : typeof vectors;
    throw modelOutputInvalid(where, `asked for ${count} vectors, got ${got}`, { expectedCount: count });
  }
  return vectors.map((vector: unknown, index) => {
    if (!Array.isArray(vector) && !ArrayBuffer.isView(vector)) {
      throw modelOutputInvalid(where, `vector ${index} is not an array of numbers`, { index });
    }
    const values = vector as ArrayLike<unknown>;
    if (values.length !== dimensions) {
      throw modelOutputInvalid(
        where,
        `vector ${index} has ${values.length} dimensions, expected ${dimensions}`,
        {
          index,
          dimensions: values.length,
          expected: dimensions,
        },
      );
    }
    return unitVector(values, where, index);
  });
}
