/**
 * USE-lite's forward pass written out: the same weights and the same arithmetic as the TF.js graph
 * in the weights package, without the graph executor. The graph spends most of a pass on
 * bookkeeping (317 nodes: shape ops, scatter/gather between padded and packed layouts, masks); here
 * a batch stays packed (no padding), the ten matrix products of a pass run on the TF.js backend
 * (XNNPACK on WebAssembly, with the weights packed once since the weight tensors live as long as
 * the model), and the rest (embedding lookup, position signal, layer norms, attention, pooling)
 * is a few loops over typed arrays.
 *
 * The graph, for reference: tokens past position 128 are dropped; the input is twice the token's
 * embedding plus a sinusoid position signal; two pre-norm transformer layers (4 heads; the first
 * widens 256 to 512 with a dense residual projection); the mean over the tokens; a 512-unit tanh
 * layer; L2 normalisation.
 */
import type * as tfc from '@tensorflow/tfjs-core';
import { addInto, layerNorm, selfAttention, timingSignal } from './encoder-math.ts';
import { floatWeights, requireWeight } from './named-weights.ts';
import type { UseLiteWeights } from './weights-package.ts';

/** Tokens the model reads per text (its `ClipToMaxLength` constant): later ones are ignored. */
export const USE_LITE_MAX_TOKENS = 128;
const HEADS = 4;
const EMBEDDING_WIDTH = 256;
const WIDTH = 512;
const VOCABULARY = 8002;

const APPLY = 'module_apply_default/Encoder_en/KonaTransformer/Encode/';
const STACK = `${APPLY}TransformerStack/`;
const VARIABLES = 'module/Encoder_en/KonaTransformer/Encode/';

export interface UseLiteEncoder {
  /** One L2-normalised 512-dimension vector per non-empty token-id list, in order. */
  encode(batch: number[][]): Float32Array[];
  /** Frees the weight tensors. */
  dispose(): void;
}

interface Dense {
  inputs: number;
  kernel: tfc.Tensor2D;
  bias: tfc.Tensor1D;
}

interface Layer {
  width: number;
  attentionNorm: { scale: Float32Array; bias: Float32Array };
  qkv: Dense;
  queryScale: number;
  output: Dense;
  /** Projects the layer's input to the residual width when the two differ. */
  residual?: Dense;
  ffnNorm: { scale: Float32Array; bias: Float32Array };
  ffnIn: Dense;
  ffnOut: Dense;
}

export function useLiteEncoder(tf: typeof tfc, weights: UseLiteWeights): UseLiteEncoder {
  const all = floatWeights(weights);
  const tensors: tfc.Tensor[] = [];
  const get = (name: string, shape: number[]) => requireWeight(all, name, shape);
  const dense = (
    kernel: string,
    bias: string,
    inputs: number,
    outputs: number,
    kernelShape = [inputs, outputs],
  ): Dense => {
    // Both looked up before either tensor exists, so a missing one leaves nothing to free.
    const kernelValues = get(kernel, kernelShape);
    const biasValues = get(bias, [outputs]);
    const layer = {
      inputs,
      kernel: tf.tensor2d(kernelValues, [inputs, outputs], 'float32'),
      bias: tf.tensor1d(biasValues, 'float32'),
    };
    tensors.push(layer.kernel, layer.bias);
    return layer;
  };
  // Weights read in JavaScript are copied out, so the 27 MB buffer they came from can be freed.
  const norm = (prefix: string, width: number) => ({
    scale: get(`${prefix}layer_norm/layer_norm_scale/ConcatPartitions/concat`, [width]).slice(),
    bias: get(`${prefix}layer_norm/layer_norm_bias/ConcatPartitions/concat`, [width]).slice(),
  });
  const layer = (index: number, inputWidth: number): Layer => {
    const at = `${APPLY}Layer_${index}/TransformerLayer/`;
    const variables = `${VARIABLES}Layer_${index}/TransformerLayer/MultiheadAttention/`;
    const stack = `${STACK}Layer_${index}/TransformerLayer/`;
    return {
      width: inputWidth,
      attentionNorm: norm(`${at}layer_prepostprocess/`, inputWidth),
      qkv: dense(
        `${variables}qkv_transform_single/kernel/part_0`,
        `${at}MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat`,
        inputWidth,
        3 * inputWidth,
        [1, 1, inputWidth, 3 * inputWidth],
      ),
      queryScale: get(`${stack}MultiheadAttention/mul/y`, [])[0]!,
      output: dense(
        `${variables}output_transform_single/kernel/part_0`,
        `${at}MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat`,
        inputWidth,
        WIDTH,
        [1, 1, inputWidth, WIDTH],
      ),
      ...(inputWidth === WIDTH
        ? {}
        : {
            residual: dense(
              `${at}dense/kernel/ConcatPartitions/concat`,
              `${at}dense/bias/ConcatPartitions/concat`,
              inputWidth,
              WIDTH,
            ),
          }),
      ffnNorm: norm(`${at}FFN/layer_prepostprocess/`, WIDTH),
      ffnIn: dense(
        `${stack}FFN/conv1/Tensordot/Reshape_1`,
        `${at}FFN/conv1/bias/ConcatPartitions/concat`,
        WIDTH,
        3 * WIDTH,
      ),
      ffnOut: dense(
        `${stack}FFN/conv2/Tensordot/Reshape_1`,
        `${at}FFN/conv2/bias/ConcatPartitions/concat`,
        3 * WIDTH,
        WIDTH,
      ),
    };
  };

  let layers: Layer[];
  let pooled: Dense;
  let embeddings: Float32Array;
  let timing: Float32Array;
  let epsilon: number;
  try {
    embeddings = get('module/Embeddings_en', [VOCABULARY, EMBEDDING_WIDTH]).slice();
    timing = timingSignal(
      USE_LITE_MAX_TOKENS,
      get(`${STACK}Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1`, [1, EMBEDDING_WIDTH / 2]),
    );
    epsilon = get(`${STACK}Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x`, [])[0]!;
    layers = [layer(0, EMBEDDING_WIDTH), layer(1, WIDTH)];
    pooled = dense(
      'module/Encoder_en/hidden_layers/tanh_layer_0/weights',
      'module/Encoder_en/hidden_layers/tanh_layer_0/bias',
      WIDTH,
      WIDTH,
    );
  } catch (error) {
    tf.dispose(tensors);
    throw error;
  }

  /**
   * `x @ kernel + bias` on the TF.js backend, for `x` of `[rows, inputs]`; with `then`, a ReLU and
   * a second product on the result, which stays on the backend in between.
   */
  function project(x: Float32Array, layer: Dense, then?: Dense): Float32Array {
    const rows = x.length / layer.inputs;
    const result = tf.tidy(() => {
      const first = tf.fused.matMul({
        a: tf.tensor2d(x, [rows, layer.inputs], 'float32'),
        b: layer.kernel,
        bias: layer.bias,
        activation: then ? 'relu' : 'linear',
      });
      return then ? tf.fused.matMul({ a: first, b: then.kernel, bias: then.bias }) : first;
    });
    try {
      return result.dataSync() as Float32Array;
    } finally {
      result.dispose();
    }
  }

  function transformerLayer(x: Float32Array, layer: Layer, lengths: readonly number[]): Float32Array {
    const normed = layerNorm({ x, width: layer.width, ...layer.attentionNorm, epsilon });
    const attended = selfAttention({
      qkv: project(normed, layer.qkv),
      lengths,
      width: layer.width,
      heads: HEADS,
      queryScale: layer.queryScale,
    });
    const h = addInto(project(attended, layer.output), layer.residual ? project(x, layer.residual) : x);
    const ffn = project(
      layerNorm({ x: h, width: WIDTH, ...layer.ffnNorm, epsilon }),
      layer.ffnIn,
      layer.ffnOut,
    );
    return addInto(ffn, h);
  }

  function encode(batch: number[][]): Float32Array[] {
    const lengths = batch.map((tokens) => Math.min(tokens.length, USE_LITE_MAX_TOKENS));
    const total = lengths.reduce((sum, n) => sum + n, 0);
    let x: Float32Array = new Float32Array(total * EMBEDDING_WIDTH);
    let at = 0;
    batch.forEach((tokens, row) => {
      if (lengths[row] === 0) throw new RangeError('USE-lite cannot embed an empty token list');
      for (let position = 0; position < lengths[row]!; position++) {
        const id = tokens[position]!;
        if (!Number.isInteger(id) || id < 0 || id >= VOCABULARY)
          throw new RangeError(`token id ${id} out of range`);
        const embedding = id * EMBEDDING_WIDTH;
        const signal = position * EMBEDDING_WIDTH;
        for (let c = 0; c < EMBEDDING_WIDTH; c++) {
          x[at + c] = 2 * embeddings[embedding + c]! + timing[signal + c]!;
        }
        at += EMBEDDING_WIDTH;
      }
    });
    for (const layer of layers) x = transformerLayer(x, layer, lengths);
    const means = new Float32Array(batch.length * WIDTH);
    let first = 0;
    lengths.forEach((length, row) => {
      for (let t = first; t < first + length; t++) {
        for (let c = 0; c < WIDTH; c++) means[row * WIDTH + c]! += x[t * WIDTH + c]!;
      }
      for (let c = 0; c < WIDTH; c++) means[row * WIDTH + c]! /= length;
      first += length;
    });
    const hidden = project(means, pooled);
    return lengths.map((_, row) => {
      const vector = new Float32Array(WIDTH);
      let squares = 0;
      for (let c = 0; c < WIDTH; c++) {
        const value = Math.tanh(hidden[row * WIDTH + c]!);
        vector[c] = value;
        squares += value * value;
      }
      const scale = 1 / Math.sqrt(Math.max(squares, 1e-12));
      for (let c = 0; c < WIDTH; c++) vector[c]! *= scale;
      return vector;
    });
  }

  return {
    encode,
    dispose: () => tf.dispose(tensors),
  };
}
