import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import { type Embedder, LIMITS, PORT_SPECIFICATION_VERSION, parseArgs } from '@strata-memory/core';
import { z } from 'zod/v4';
import { modelFailure, modelOutputInvalid } from './model-errors.ts';

export interface LangChainEmbedderOptions {
  /** A LangChain `Embeddings`, e.g. `new OpenAIEmbeddings({ model: 'text-embedding-3-small' })`. */
  embeddings: EmbeddingsInterface;
  /** The model's vector length (e.g. 1536). Every returned vector is checked against it. */
  dimensions: number;
  /** Stored with each episode. Default `langchain:<class name>[:<model>]`. */
  id?: string;
  /** Most texts per `embed` call; the engine splits larger batches. Default 256. */
  maxBatchSize?: number;
}

const optionsSchema = z
  .object({
    embeddings: z.custom<EmbeddingsInterface>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        typeof (value as EmbeddingsInterface).embedDocuments === 'function' &&
        typeof (value as EmbeddingsInterface).embedQuery === 'function',
      'must be a LangChain Embeddings',
    ),
    dimensions: z.number().int().min(1).max(LIMITS.maxDimensions),
    id: z.string().min(1).max(256).optional(),
    maxBatchSize: z.number().int().min(1).max(LIMITS.maxBatch).optional(),
  })
  .strict();

function identity(embeddings: EmbeddingsInterface): string {
  const name = (embeddings as object).constructor?.name || 'Embeddings';
  const fields = embeddings as { model?: unknown; modelName?: unknown };
  const model = typeof fields.model === 'string' ? fields.model : fields.modelName;
  return typeof model === 'string' && model ? `langchain:${name}:${model}` : `langchain:${name}`;
}

/** Scales a vector to unit length, as the `Embedder` port asks; a zero or non-finite vector is invalid. */
function unitLength(vector: number[], where: string, index: number): number[] {
  let sum = 0;
  for (const value of vector) {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw modelOutputInvalid(where, `vector ${index} holds a non-finite number`, { index });
    }
    sum += value * value;
  }
  const norm = Math.sqrt(sum);
  if (norm === 0) throw modelOutputInvalid(where, `vector ${index} is all zeros`, { index });
  return vector.map((value) => value / norm);
}

/**
 * A LangChain `Embeddings` as the engine's `Embedder`: texts go through `embedDocuments` (which
 * batches and retries the LangChain way), and every vector is checked for count, length and
 * finiteness and returned unit-length. A failing call is `model_failure`; a bad vector
 * `model_output_invalid`. The engine's port does not tell documents from queries, so queries are
 * embedded with `embedDocuments` too.
 */
export function langChainEmbedder(options: LangChainEmbedderOptions): Embedder {
  const parsed = parseArgs(optionsSchema, options, 'langChainEmbedder');
  const id = parsed.id ?? identity(parsed.embeddings);
  const where = `langChainEmbedder(${id})`;
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id,
    dimensions: parsed.dimensions,
    maxBatchSize: parsed.maxBatchSize ?? 256,
    async embed({ texts, signal }) {
      if (texts.length === 0) return [];
      signal?.throwIfAborted();
      let vectors: unknown;
      try {
        vectors = await parsed.embeddings.embedDocuments(texts);
      } catch (error) {
        throw modelFailure(where, error);
      }
      if (!Array.isArray(vectors) || vectors.length !== texts.length) {
        const got = Array.isArray(vectors) ? vectors.length : typeof vectors;
        throw modelOutputInvalid(where, `asked for ${texts.length} vectors, got ${got}`);
      }
      return vectors.map((vector: unknown, index) => {
        if (!Array.isArray(vector) || vector.length !== parsed.dimensions) {
          const dimensions = Array.isArray(vector) ? vector.length : undefined;
          throw modelOutputInvalid(
            where,
            `vector ${index} has ${dimensions ?? 'no'} dimensions, expected ${parsed.dimensions}`,
            { index, dimensions, expected: parsed.dimensions },
          );
        }
        return unitLength(vector as number[], where, index);
      });
    },
  };
}
