import { type Embedder, LIMITS, PORT_SPECIFICATION_VERSION } from '@strata-memory/core';
import { modelFailure, parseArgs, unitVectors } from '@strata-memory/core/integration';
import { type EmbeddingModel, embedMany } from 'ai';
import { z } from 'zod/v4';

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

/**
 * An AI SDK `EmbeddingModel` as the engine's `Embedder`. Calls go through `embedMany`, which
 * splits a batch into calls of at most the model's `maxEmbeddingsPerCall` texts and retries
 * failures; `maxBatchSize` tells the engine the same limit. Vectors come back unit-length and
 * are checked for count and length; failures are `model_failure`, bad vectors `model_output_invalid`.
 * The AI SDK has one `embedMany` for documents and queries alike, so `purpose` is not used.
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
      return unitVectors({ vectors: embeddings, count: texts.length, dimensions: parsed.dimensions, where });
    },
  };
}
