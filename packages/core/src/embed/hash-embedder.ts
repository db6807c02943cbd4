import { createHash } from 'node:crypto';
import { type Embedder, PORT_SPECIFICATION_VERSION } from '../ports/ports.ts';

export interface HashEmbedderOptions {
  /** Vector length. Default 256. */
  dimensions?: number;
}

/**
 * A lexical embedder: the hashing trick over word unigrams and bigrams, unit-normalised.
 * Deterministic, dependency-free and instant. NOT semantic: "car" and "automobile" are unrelated
 * to it. Use it in tests, or as a last resort; use `localEmbedder()` from
 * `@strata-memory/embed-local` for real semantic search offline.
 */
export function hashEmbedder(options: HashEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? 256;
  if (!Number.isInteger(dimensions) || dimensions < 2 || dimensions > 4096) {
    throw new RangeError(`hashEmbedder: dimensions must be an integer in 2..4096 (got ${dimensions})`);
  }
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: `hash-${dimensions}`,
    dimensions,
    maxBatchSize: 4096,
    unrelatedSimilarity: hashUnrelatedSimilarity(dimensions),
    async embed({ texts }) {
      return texts.map((text) => hashVector(text, dimensions));
    },
  };
}

/**
 * The cosine unrelated texts reach with the hashing trick: shared stop words (about 0.24 with
 * buckets to spare) plus words colliding in a bucket, which fall with the square root of the
 * dimensions. An upper bound of what `measureUnrelatedSimilarity` gives (0.34 at 64 dimensions,
 * 0.29 at 256, 0.24 at 4,096); the embedder is lexical, so what it relates the keyword search finds.
 */
export function hashUnrelatedSimilarity(dimensions: number): number {
  return Math.min(1, 0.25 + 2 / Math.sqrt(dimensions));
}

function bucket(feature: string, dimensions: number): { index: number; sign: number } {
  const digest = createHash('md5').update(feature).digest();
  return { index: digest.readUInt32LE(0) % dimensions, sign: (digest[4]! & 1) === 0 ? 1 : -1 };
}

function hashVector(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const features = [...words, ...words.slice(1).map((w, i) => `${words[i]} ${w}`)];
  for (const feature of features) {
    const { index, sign } = bucket(feature, dimensions);
    vector[index] = vector[index]! + sign;
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) {
    vector[0] = 1;
    return vector;
  }
  return vector.map((v) => v / norm);
}
