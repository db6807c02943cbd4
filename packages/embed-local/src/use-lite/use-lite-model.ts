import { StrataError } from '@strata-memory/core';
import { registerBatchedMatMul, rerouteBatchedMatMuls } from './batched-matmul.ts';
import type { UseLiteWeights } from './weights-package.ts';

/**
 * TF.js backends that run here without downloading anything: `wasm` (XNNPACK compiled to
 * WebAssembly, shipped inside `@tensorflow/tfjs-backend-wasm`) and `cpu` (plain JavaScript).
 */
export type UseLiteBackend = 'wasm' | 'cpu';

export const USE_LITE_DIMENSIONS = 512;

// One forward pass at a time in the process: TF.js graph execution is not meant to interleave, and
// the backend is a process-wide setting that a pass may have to switch back to.
let passes: Promise<unknown> = Promise.resolve();

function exclusive<T>(run: () => Promise<T>): Promise<T> {
  const result = passes.then(run, run);
  passes = result.catch(() => undefined);
  return result;
}

export interface UseLiteModel {
  readonly backend: UseLiteBackend;
  /**
   * One raw (not yet unit-length) 512-dimension vector per token-id list, in order. Every list
   * must be non-empty: the graph derives its row count from the highest row that holds a token.
   */
  embedTokens(batch: number[][]): Promise<Float32Array[]>;
}

/**
 * Loads the USE-lite graph into TF.js on `backend`. TF.js keeps one backend per process (shared by
 * every copy of `@tensorflow/tfjs-core`), so this selects it for the whole process, and turns on
 * production mode (no debug checks, no console banner).
 */
export async function loadUseLiteModel(args: {
  weights: UseLiteWeights;
  backend: UseLiteBackend;
}): Promise<UseLiteModel> {
  const tf = await import('@tensorflow/tfjs-core');
  const graph = await import('@tensorflow/tfjs-converter');
  await import('@tensorflow/tfjs-backend-cpu');
  if (args.backend === 'wasm') await import('@tensorflow/tfjs-backend-wasm');
  tf.enableProdMode();
  let selected = false;
  try {
    selected = await tf.setBackend(args.backend);
  } catch (error) {
    throw backendFailure(args.backend, error);
  }
  if (!selected) throw backendFailure(args.backend);
  const { weightSpecs, weightData } = args.weights;
  // On WebAssembly, attention's batched products would run in scalar loops: route them to XNNPACK.
  let modelTopology = args.weights.modelTopology;
  if (args.backend === 'wasm') {
    registerBatchedMatMul(tf, graph);
    modelTopology = rerouteBatchedMatMuls(modelTopology);
  }
  const model = await graph.loadGraphModel(tf.io.fromMemory({ modelTopology, weightSpecs, weightData }));

  async function forwardPass(batch: number[][]): Promise<Float32Array[]> {
    if (tf.getBackend() !== args.backend && !(await tf.setBackend(args.backend))) {
      throw backendFailure(args.backend);
    }
    let count = 0;
    for (const tokens of batch) {
      if (tokens.length === 0) throw new RangeError('USE-lite cannot embed an empty token list');
      count += tokens.length;
    }
    const indices = new Int32Array(count * 2);
    const values = new Int32Array(count);
    let at = 0;
    for (let row = 0; row < batch.length; row++) {
      const tokens = batch[row]!;
      for (let column = 0; column < tokens.length; column++) {
        indices[at * 2] = row;
        indices[at * 2 + 1] = column;
        values[at] = tokens[column]!;
        at += 1;
      }
    }
    const inputs = {
      indices: tf.tensor2d(indices, [count, 2], 'int32'),
      values: tf.tensor1d(values, 'int32'),
    };
    let output: Awaited<ReturnType<typeof model.executeAsync>> | undefined;
    try {
      output = await model.executeAsync(inputs);
      const tensor = Array.isArray(output) ? output[0] : output;
      if (tensor === undefined || tensor.shape.length !== 2 || tensor.shape[1] !== USE_LITE_DIMENSIONS) {
        throw new StrataError({
          code: 'model_output_invalid',
          message: `USE-lite returned a tensor of shape [${tensor?.shape.join(', ') ?? ''}], expected [n, ${USE_LITE_DIMENSIONS}].`,
        });
      }
      if (tensor.shape[0] !== batch.length) {
        throw new StrataError({
          code: 'internal',
          message: `USE-lite returned ${tensor.shape[0]} rows for ${batch.length} texts.`,
        });
      }
      const flat = (await tensor.data()) as Float32Array;
      return batch.map((_, row) => flat.slice(row * USE_LITE_DIMENSIONS, (row + 1) * USE_LITE_DIMENSIONS));
    } finally {
      tf.dispose([inputs.indices, inputs.values]);
      if (output !== undefined) tf.dispose(output);
    }
  }

  return {
    backend: args.backend,
    embedTokens: (batch) => (batch.length === 0 ? Promise.resolve([]) : exclusive(() => forwardPass(batch))),
  };
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
