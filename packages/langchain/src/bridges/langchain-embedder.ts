import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import { type Embedder, LIMITS, PORT_SPECIFICATION_VERSION } from '@strata-memory/core';
import { modelFailure, parseArgs, unitVectors } from '@strata-memory/core/integration';
import { z } from 'zod/v4';

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

/**
 * A LangChain `Embeddings` as the engine's `Embedder`. What the engine stores (`purpose:
 * 'document'`, or none) goes through `embedDocuments`, which batches and retries the LangChain way;
 * what recall searches with (`purpose: 'query'`) through `embedQuery`, one text at a time, so
 * models with asymmetric embeddings (a query instruction or prefix) embed each side their way.
 * Every vector is checked for count, length and finiteness and returned unit-length. A failing call
 * is `model_failure`; a bad vector `model_output_invalid`.
 */
export function langChainEmbedder(options: LangChainEmbedderOptions): Embedder {
  const parsed = parseArgs(optionsSchema, options, 'langChainEmbedder');
  const { embeddings } = parsed;
  const id = parsed.id ?? identity(embeddings);
  const where = `langChainEmbedder(${id})`;
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id,
    dimensions: parsed.dimensions,
    maxBatchSize: parsed.maxBatchSize ?? 256,
    async embed({ texts, purpose, signal }) {
      if (texts.length === 0) return [];
      signal?.throwIfAborted();
      let vectors: unknown;
      try {
        vectors =
          purpose === 'query'
            ? await Promise.all(texts.map((text) => embeddings.embedQuery(text)))
            : await embeddings.embedDocuments(texts);
      } catch (error) {
        throw modelFailure(where, error);
      }
      return unitVectors({ vectors, count: texts.length, dimensions: parsed.dimensions, where });
    },
  };
}
