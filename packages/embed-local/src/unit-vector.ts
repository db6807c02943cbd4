import { StrataError } from '@strata-memory/core';

/** Scales `values` to Euclidean length 1 (computed in float64). Zero or non-finite input is a model fault. */
export function unitVector(values: ArrayLike<number>, modelId: string): number[] {
  let sumOfSquares = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (!Number.isFinite(value)) throw invalidVector(modelId, 'a non-finite number');
    sumOfSquares += value * value;
  }
  if (sumOfSquares === 0) throw invalidVector(modelId, 'a zero vector');
  const scale = 1 / Math.sqrt(sumOfSquares);
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i]! * scale;
  return out;
}

function invalidVector(modelId: string, what: string): StrataError {
  return new StrataError({
    code: 'model_output_invalid',
    message: `The embedding model "${modelId}" returned ${what}.`,
    details: { model: modelId },
  });
}
