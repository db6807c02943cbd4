import type { Embedder } from '../ports/ports.ts';

/**
 * The embedder with `purpose: 'document'` on every call, for texts the engine stores (observed
 * messages, fact index texts): models with asymmetric embeddings embed them as documents.
 */
export function documentEmbedder(embedder: Embedder): Embedder {
  return {
    specificationVersion: embedder.specificationVersion,
    id: embedder.id,
    dimensions: embedder.dimensions,
    maxBatchSize: embedder.maxBatchSize,
    embed: (args) => embedder.embed({ ...args, purpose: 'document' }),
  };
}
