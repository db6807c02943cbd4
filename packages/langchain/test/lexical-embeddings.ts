import { Embeddings } from '@langchain/core/embeddings';
import { hashEmbedder } from '@strata-memory/core';

/**
 * A deterministic LangChain `Embeddings` for tests: core's lexical hash embedder (word and word-pair
 * features), so texts that share words are close. Not semantic.
 */
export class LexicalEmbeddings extends Embeddings {
  readonly dimensions: number;
  readonly calls: string[][] = [];
  readonly #embedder;

  constructor(dimensions = 64) {
    super({});
    this.dimensions = dimensions;
    this.#embedder = hashEmbedder({ dimensions });
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.calls.push([...texts]);
    return this.#embedder.embed({ texts });
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.#embedder.embed({ texts: [text] });
    return vector!;
  }
}
