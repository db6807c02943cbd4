import { type Embedder, PORT_SPECIFICATION_VERSION } from '@strata-memory/core';
import { unitVector } from '../src/unit-vector.ts';
import { sentencePieceTokenizer } from '../src/use-lite/sentencepiece-tokenizer.ts';
import { loadUseLiteGraph, type UseLiteGraph } from '../src/use-lite/use-lite-graph.ts';
import { readUseLiteWeights } from '../src/use-lite/weights-package.ts';

/**
 * The reference for the benchmark: USE-lite on TF.js's graph executor (how the weights package
 * runs it, and how this package ran it before its own forward pass), on the WebAssembly backend,
 * with the package's tokenizer. Batches are passed through as given; no cache.
 */
export function graphEmbedder(): Embedder & { warmup(): Promise<void> } {
  let loading: Promise<{ graph: UseLiteGraph; encode: (text: string) => number[] }> | undefined;
  const tf = import('@tensorflow/tfjs-core');
  const load = () => {
    loading ??= (async () => {
      const core = await tf;
      await import('@tensorflow/tfjs-backend-wasm');
      core.enableProdMode();
      await core.setBackend('wasm');
      const weights = await readUseLiteWeights();
      const tokenizer = sentencePieceTokenizer(weights.vocabulary);
      const blank = tokenizer.encode(' ');
      const encode = (text: string) => {
        const ids = tokenizer.encode(text, 128);
        return ids.length > 0 ? ids : blank;
      };
      return { graph: await loadUseLiteGraph(core, weights), encode };
    })();
    return loading;
  };
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: 'use-lite-512',
    dimensions: 512,
    maxBatchSize: 256,
    async warmup() {
      const { graph, encode } = await load();
      await graph.embedTokens([encode('warm up')]);
    },
    async embed({ texts }) {
      if (texts.length === 0) return [];
      const { graph, encode } = await load();
      // Another candidate in the process may have switched the process-wide backend.
      await (await tf).setBackend('wasm');
      const raw = await graph.embedTokens(texts.map(encode));
      return raw.map((vector) => unitVector(vector, 'use-lite-512'));
    },
  };
}
