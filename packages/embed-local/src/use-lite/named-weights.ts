import { StrataError } from '@strata-memory/core';
import type { UseLiteWeights } from './weights-package.ts';

export interface FloatWeight {
  shape: number[];
  values: Float32Array;
}

const BYTES_PER_ELEMENT: Record<string, number> = { float32: 4, int32: 4, bool: 1 };

/**
 * The float32 weights of a TF.js weights manifest, by name, as views into the one weight buffer
 * (no copies, no tensors). Quantized or string weights are not part of USE-lite and are refused.
 */
export function floatWeights(weights: UseLiteWeights): Map<string, FloatWeight> {
  const out = new Map<string, FloatWeight>();
  let offset = 0;
  for (const spec of weights.weightSpecs) {
    const bytes = BYTES_PER_ELEMENT[spec.dtype];
    if (bytes === undefined || spec.quantization !== undefined) {
      throw malformed(
        `weight ${spec.name} has an unsupported encoding (${spec.dtype}${spec.quantization ? ', quantized' : ''})`,
      );
    }
    const size = spec.shape.reduce((n, d) => n * d, 1);
    if (offset + size * bytes > weights.weightData.byteLength) {
      throw malformed(`weight ${spec.name} runs past the end of the weight files`);
    }
    if (spec.dtype === 'float32') {
      // A view where the offset allows one (always, unless a 1-byte weight came before), else a copy.
      const values =
        offset % 4 === 0
          ? new Float32Array(weights.weightData, offset, size)
          : new Float32Array(weights.weightData.slice(offset, offset + size * 4));
      out.set(spec.name, { shape: [...spec.shape], values });
    }
    offset += size * bytes;
  }
  return out;
}

/** The weight `name`, checked to have `shape` (a model file from another export would not). */
export function requireWeight(all: Map<string, FloatWeight>, name: string, shape: number[]): Float32Array {
  const weight = all.get(name);
  if (weight === undefined) throw malformed(`weight ${name} is missing`);
  if (weight.shape.length !== shape.length || weight.shape.some((d, i) => d !== shape[i])) {
    throw malformed(`weight ${name} has shape [${weight.shape.join(', ')}], expected [${shape.join(', ')}]`);
  }
  return weight.values;
}

function malformed(problem: string): StrataError {
  return new StrataError({
    code: 'model_failure',
    category: 'user',
    retryable: false,
    message: `The USE-lite weights are not the expected model: ${problem}.`,
    details: { reason: 'weights_package_broken' },
  });
}
