import { StrataError } from '../errors/strata-error.ts';
import type { Embedder } from '../ports/ports.ts';

/**
 * Embeds texts in batches of at most `embedder.maxBatchSize`, checks what comes back (one finite
 * vector of the declared length per text) and scales each to unit length. Any failure, thrown or
 * malformed, becomes a `model_failure` StrataError so callers handle one error kind.
 */
export async function embedInBatches(args: {
  embedder: Embedder;
  texts: string[];
  signal?: AbortSignal;
}): Promise<number[][]> {
  const { embedder, texts } = args;
  const batchSize = Math.max(1, Math.floor(embedder.maxBatchSize));
  const out: number[][] = [];
  for (let start = 0; start < texts.length; start += batchSize) {
    const batch = texts.slice(start, start + batchSize);
    let vectors: number[][];
    try {
      vectors = await embedder.embed({ texts: batch, ...(args.signal ? { signal: args.signal } : {}) });
    } catch (error) {
      throw new StrataError({
        code: 'model_failure',
        message: `The embedder "${embedder.id}" failed: ${error instanceof Error ? error.message : String(error)}`,
        cause: error,
        details: { embedder: embedder.id, batchSize: batch.length },
      });
    }
    if (!Array.isArray(vectors) || vectors.length !== batch.length) {
      throw malformed(
        embedder,
        `returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${batch.length} texts`,
      );
    }
    for (const vector of vectors) out.push(unitVector(embedder, vector));
  }
  return out;
}

function unitVector(embedder: Embedder, vector: unknown): number[] {
  if (!Array.isArray(vector) || vector.length !== embedder.dimensions) {
    throw malformed(
      embedder,
      `returned a vector of ${Array.isArray(vector) ? vector.length : 'no'} dimensions (declared ${embedder.dimensions})`,
    );
  }
  let norm = 0;
  for (const x of vector) {
    if (typeof x !== 'number' || !Number.isFinite(x))
      throw malformed(embedder, 'returned a non-finite number');
    norm += x * x;
  }
  if (norm === 0) throw malformed(embedder, 'returned a zero vector');
  const scale = 1 / Math.sqrt(norm);
  return (vector as number[]).map((x) => x * scale);
}

function malformed(embedder: Embedder, problem: string): StrataError {
  return new StrataError({
    code: 'model_failure',
    message: `The embedder "${embedder.id}" ${problem}.`,
    details: { embedder: embedder.id },
  });
}
