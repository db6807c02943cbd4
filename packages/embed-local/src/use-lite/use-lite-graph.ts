/**
 * The reference: USE-lite run as the weights package ships it, a TF.js graph model on the graph
 * executor. `useLiteEncoder` must give the same vectors; the tests and the benchmark compare the
 * two. Not used to embed (it is slower), and not exported from the package.
 */
import type * as tfc from '@tensorflow/tfjs-core';
import type { UseLiteWeights } from './weights-package.ts';

export interface UseLiteGraph {
  /** One 512-dimension vector per non-empty token-id list, in order. */
  embedTokens(batch: number[][]): Promise<Float32Array[]>;
  dispose(): void;
}

/** Loads the graph on the current TF.js backend. */
export async function loadUseLiteGraph(tf: typeof tfc, weights: UseLiteWeights): Promise<UseLiteGraph> {
  const converter = await import('@tensorflow/tfjs-converter');
  const { modelTopology, weightSpecs, weightData } = weights;
  const model = await converter.loadGraphModel(tf.io.fromMemory({ modelTopology, weightSpecs, weightData }));
  return {
    async embedTokens(batch) {
      // The graph reads a sparse batch: (row, column) of each token, and its id.
      const indices: number[] = [];
      const values: number[] = [];
      batch.forEach((tokens, row) => {
        tokens.forEach((id, column) => {
          indices.push(row, column);
          values.push(id);
        });
      });
      const inputs = {
        indices: tf.tensor2d(indices, [values.length, 2], 'int32'),
        values: tf.tensor1d(values, 'int32'),
      };
      try {
        const output = (await model.executeAsync(inputs)) as tfc.Tensor;
        const flat = (await output.data()) as Float32Array;
        output.dispose();
        return batch.map((_, row) => flat.slice(row * 512, (row + 1) * 512));
      } finally {
        tf.dispose([inputs.indices, inputs.values]);
      }
    },
    dispose: () => model.dispose(),
  };
}
