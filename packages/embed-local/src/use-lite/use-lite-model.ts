import { StrataError } from '@strata-memory/core';
import { type UseLiteEncoder, useLiteEncoder } from './use-lite-encoder.ts';
import type { UseLiteWeights } from './weights-package.ts';

/**
 * TF.js backends that run here without downloading anything: `wasm` (XNNPACK compiled to
 * WebAssembly with SIMD, shipped inside `@tensorflow/tfjs-backend-wasm`) and `cpu` (plain
 * JavaScript). The backend runs the model's matrix products; the rest is plain JavaScript either way.
 */
export type UseLiteBackend = 'wasm' | 'cpu';

export const USE_LITE_DIMENSIONS = 512;

// One forward pass at a time in the process: the backend is a process-wide setting that a pass may
// have to switch back to.
let passes: Promise<unknown> = Promise.resolve();

function exclusive<T>(run: () => Promise<T>): Promise<T> {
  const result = passes.then(run, run);
  passes = result.catch(() => undefined);
  return result;
}

export interface UseLiteModel {
  readonly backend: UseLiteBackend;
  /** One 512-dimension vector per token-id list, in order. Every list must be non-empty. */
  embedTokens(batch: number[][]): Promise<Float32Array[]>;
}

/**
 * Loads USE-lite on `backend`. TF.js keeps one backend per process (shared by every copy of
 * `@tensorflow/tfjs-core`), so this selects it for the whole process, and turns on production mode
 * (no debug checks, no console banner). One pass runs at load so the backend's one-time set-up
 * (XNNPACK packing each weight matrix) is not paid by the first caller.
 */
export async function loadUseLiteModel(args: {
  weights: UseLiteWeights;
  backend: UseLiteBackend;
}): Promise<UseLiteModel> {
  const tf = await import('@tensorflow/tfjs-core');
  await import('@tensorflow/tfjs-backend-cpu');
  if (args.backend === 'wasm') await import('@tensorflow/tfjs-backend-wasm');
  tf.enableProdMode();
  await selectBackend(tf, args.backend);
  const encoder: UseLiteEncoder = useLiteEncoder(tf, args.weights);
  encoder.encode([[WARM_UP_TOKEN]]);

  async function forwardPass(batch: number[][]): Promise<Float32Array[]> {
    if (tf.getBackend() !== args.backend) await selectBackend(tf, args.backend);
    const vectors = encoder.encode(batch);
    if (vectors.length !== batch.length || vectors.some((v) => v.length !== USE_LITE_DIMENSIONS)) {
      throw new StrataError({
        code: 'internal',
        message: `USE-lite returned ${vectors.length} vectors for ${batch.length} texts.`,
      });
    }
    return vectors;
  }

  return {
    backend: args.backend,
    embedTokens: (batch) => (batch.length === 0 ? Promise.resolve([]) : exclusive(() => forwardPass(batch))),
  };
}

/** Any token id: the warm-up pass only has to run. */
const WARM_UP_TOKEN = 6;

async function selectBackend(
  tf: typeof import('@tensorflow/tfjs-core'),
  backend: UseLiteBackend,
): Promise<void> {
  let selected = false;
  try {
    selected = await tf.setBackend(backend);
  } catch (error) {
    throw backendFailure(backend, error);
  }
  if (!selected) throw backendFailure(backend);
}

function backendFailure(backend: UseLiteBackend, cause?: unknown): StrataError {
  return new StrataError({
    code: 'model_failure',
    category: 'system',
    retryable: false,
    message: `The TensorFlow.js "${backend}" backend could not start${cause instanceof Error ? `: ${cause.message}` : ''}. Try localEmbedder({ backend: 'cpu' }).`,
    ...(cause === undefined ? {} : { cause }),
    details: { backend },
  });
}
