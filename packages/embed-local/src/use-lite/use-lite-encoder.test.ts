import { StrataError } from '@strata-memory/core';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type SentencePieceTokenizer, sentencePieceTokenizer } from './sentencepiece-tokenizer.ts';
import { USE_LITE_MAX_TOKENS, useLiteEncoder } from './use-lite-encoder.ts';
import { loadUseLiteGraph } from './use-lite-graph.ts';
import { readUseLiteWeights, type UseLiteWeights } from './weights-package.ts';

let weights: UseLiteWeights;
let tokenizer: SentencePieceTokenizer;

beforeAll(async () => {
  tf.enableProdMode();
  await tf.setBackend('wasm');
  weights = await readUseLiteWeights();
  tokenizer = sentencePieceTokenizer(weights.vocabulary);
});

const texts = [
  'ok',
  'I bought a new car.',
  'What did Caroline research for her career change?',
  'Melanie: I painted a sunset over the lake last summer [shares a photo of a painting of a sunset]',
  // Over the model's 128 tokens: the rest must be ignored, as the graph ignores it.
  Array.from({ length: 90 }, (_, i) => `word${i}`).join(' '),
];

function minCosine(a: Float32Array[], b: Float32Array[]): number {
  return Math.min(...a.map((x, i) => x.reduce((sum, value, c) => sum + value * b[i]![c]!, 0)));
}

describe('useLiteEncoder', () => {
  it('gives the vectors of the TF.js graph, in one batch of mixed lengths', async () => {
    const batch = texts.map((text) => tokenizer.encode(text));
    expect(Math.max(...batch.map((t) => t.length))).toBeGreaterThan(USE_LITE_MAX_TOKENS);
    const graph = await loadUseLiteGraph(tf, weights);
    const reference = await graph.embedTokens(batch);
    graph.dispose();
    const encoder = useLiteEncoder(tf, weights);
    const vectors = encoder.encode(batch);
    const alone = batch.map((tokens) => encoder.encode([tokens])[0]!);
    encoder.dispose();
    expect(vectors.map((v) => v.length)).toEqual(texts.map(() => 512));
    expect(minCosine(vectors, reference)).toBeGreaterThan(0.99999);
    expect(minCosine(alone, reference)).toBeGreaterThan(0.99999);
    // Different texts stay different (the comparison is not trivially satisfied).
    expect(minCosine([vectors[1]!], [vectors[2]!])).toBeLessThan(0.9);
  });

  it('runs on the plain JavaScript backend too, with the same vectors', async () => {
    const batch = texts.slice(0, 3).map((text) => tokenizer.encode(text));
    const onWasm = useLiteEncoder(tf, weights);
    const expected = onWasm.encode(batch);
    onWasm.dispose();
    await tf.setBackend('cpu');
    try {
      const onCpu = useLiteEncoder(tf, weights);
      expect(minCosine(onCpu.encode(batch), expected)).toBeGreaterThan(0.99999);
      onCpu.dispose();
    } finally {
      await tf.setBackend('wasm');
    }
  });

  it('keeps no tensors but its weights, and frees those on dispose', () => {
    const before = tf.memory().numTensors;
    const encoder = useLiteEncoder(tf, weights);
    const loaded = tf.memory().numTensors;
    encoder.encode([tokenizer.encode('no leaks'), tokenizer.encode('none here either')]);
    expect(tf.memory().numTensors).toBe(loaded);
    encoder.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('refuses empty token lists and ids outside the vocabulary', () => {
    const encoder = useLiteEncoder(tf, weights);
    expect(() => encoder.encode([[]])).toThrow(RangeError);
    expect(() => encoder.encode([[8002]])).toThrow(RangeError);
    encoder.dispose();
  });

  it('names the weight that does not fit, and leaves no tensors behind', () => {
    const before = tf.memory().numTensors;
    const damaged = {
      ...weights,
      weightSpecs: weights.weightSpecs.map((spec) =>
        spec.name === 'module/Encoder_en/hidden_layers/tanh_layer_0/bias'
          ? { ...spec, name: 'renamed' }
          : spec,
      ),
    };
    const error = (() => {
      try {
        useLiteEncoder(tf, damaged);
      } catch (e) {
        return e;
      }
    })();
    expect(StrataError.hasCode(error, 'model_failure')).toBe(true);
    expect((error as Error).message).toContain('tanh_layer_0/bias is missing');
    expect(tf.memory().numTensors).toBe(before);
  });
});
