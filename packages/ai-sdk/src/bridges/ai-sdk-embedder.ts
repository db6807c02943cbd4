import { type Embedder, LIMITS, PORT_SPECIFICATION_VERSION, parseArgs } from '@strata-memory/core';
import { type EmbeddingModel, embedMany } from 'ai';
import { z } from 'zod/v4';
import { modelFailure, modelOutputInvalid } from './model-errors.ts';

export interface AiSdkEmbedderOptions {
  /** An AI SDK embedding model, e.g. `openai.embedding('text-embedding-3-small')`. */
  model: EmbeddingModel;
  /** The model's vector length (e.g. 1536). Every returned vector is checked against it. */
  dimensions: number;
  /** Stored with each episode. Default `provider:modelId`. */
  id?: string;
  /** Retries per embedding call (the AI SDK's own retry). Default 2. */
  maxRetries?: number;
}

/** Texts per call when the model does not declare `maxEmbeddingsPerCall` synchronously. */
const DEFAULT_BATCH = 256;

const optionsSchema = z.object({
  model: z.custom<EmbeddingModel>(
    (value) =>
      typeof value === 'string' ||
      (typeof value === 'object' &&
        value !== null &&
        typeof (value as { doEmbed?: unknown }).doEmbed === 'function'),
    'must be an AI SDK EmbeddingModel',
  ),
  dimensions: z.number().int().min(1).max(LIMITS.maxDimensions),
  id: z.string().min(1).max(256).optional(),
  maxRetries: z.number().int().min(0).max(10).optional(),
});

function modelIdentity(model: EmbeddingModel): string {
  return typeof model === 'string' ? model : `${model.provider}:${model.modelId}`;
}

function declaredBatchSize(model: EmbeddingModel): number {
  if (typeof model === 'string') return DEFAULT_BATCH;
  const max = model.maxEmbeddingsPerCall;
  return typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : DEFAULT_BATCH;
}

/** Scales a vector to unit length, as the `Embedder` port asks; a zero or non-finite vector is invalid. */
function unitLength(vector: number[], where: string): number[] {
  let sum = 0;
  for (const value of vector) {
    if (!Number.isFinite(value)) throw modelOutputInvalid(where, 'the model returned a non-finite number');
    sum += value * value;
  }
  const norm = Math.sqrt(sum);
  if (norm === 0) throw modelOutputInvalid(where, 'the model returned a zero vector');
  return vector.map((value) => value / norm);
}

/**
 * An AI SDK `EmbeddingModel` as the engine's `Embedder`. Calls go through `embedMany`, which
 * splits a batch into calls of at most the model's `maxEmbeddingsPerCall` texts and retries
 * failures; `maxBatchSize` tells the engine the same limit. Vectors come back unit-length and
 * are checked for count and length; failures are `model_failure`, bad vectors `model_output_invalid`.
 */
export function aiSdkEmbedder(options: AiSdkEmbedderOptions): Embedder {
  const parsed = parseArgs(optionsSchema, options, 'aiSdkEmbedder');
  const id = parsed.id ?? modelIdentity(parsed.model);
  const where = `aiSdkEmbedder(${id})`;
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id,
    dimensions: parsed.dimensions,
    maxBatchSize: declaredBatchSize(parsed.model),
    async embed({ texts, signal }) {
      if (texts.length === 0) return [];
      let embeddings: number[][];
      try {
        const result = await embedMany({
          model: parsed.model,
          values: texts,
          ...(signal ? { abortSignal: signal } : {}),
          ...(parsed.maxRetries !== undefined ? { maxRetries: parsed.maxRetries } : {}),
        });
        embeddings = result.embeddings;
      } catch (error) {
        throw modelFailure(where, error);
      }
      if (embeddings.length !== texts.length) {
        throw modelOutputInvalid(where, `asked for ${texts.length} vectors, got ${embeddings.length}`);
      }
      return embeddings.map((vector, index) => {
        if (vector.length !== parsed.dimensions) {
          throw modelOutputInvalid(
            where,
            `vector ${index} has ${vector.length} dimensions, expected ${parsed.dimensions}`,
            {
              index,
              dimensions: vector.length,
              expected: parsed.dimensions,
            },
          );
        }
        return unitLength(vector, where);
      });
    },
  };
}
