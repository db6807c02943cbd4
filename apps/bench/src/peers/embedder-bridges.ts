import { Embeddings } from '@langchain/core/embeddings';
import type { MastraEmbeddingModel } from '@mastra/core/vector';
import type { Embedder } from '@strata-memory/core';

/**
 * Strata's `Embedder` as a LangChain `Embeddings`, the interface mem0's `langchain` embedder
 * provider and LangGraph's stores take.
 */
export class StrataEmbeddings extends Embeddings {
  readonly #embedder: Embedder;

  constructor(embedder: Embedder) {
    super({ maxConcurrency: 1 });
    this.#embedder = embedder;
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let start = 0; start < documents.length; start += this.#embedder.maxBatchSize) {
      const texts = documents.slice(start, start + this.#embedder.maxBatchSize);
      out.push(...(await this.#embedder.embed({ texts, purpose: 'document' })));
    }
    return out;
  }

  async embedQuery(document: string): Promise<number[]> {
    const [vector] = await this.#embedder.embed({ texts: [document], purpose: 'query' });
    return vector!;
  }
}

/**
 * Strata's `Embedder` as an AI SDK embedding model (specification v3), the interface Mastra
 * Memory's `embedder` option takes.
 */
export function strataEmbeddingModel(embedder: Embedder): MastraEmbeddingModel<string> {
  return {
    specificationVersion: 'v3',
    provider: 'strata',
    modelId: embedder.id,
    maxEmbeddingsPerCall: embedder.maxBatchSize,
    supportsParallelCalls: false,
    async doEmbed({ values }) {
      return { embeddings: await embedder.embed({ texts: values, purpose: 'document' }), warnings: [] };
    },
  };
}
