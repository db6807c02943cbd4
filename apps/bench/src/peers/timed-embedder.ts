import type { Embedder } from '@strata-memory/core';

/** An embedder that adds up the time spent inside its `embed` calls. */
export interface TimedEmbedder extends Embedder {
  /** Milliseconds spent embedding since the last `take()`, and starts counting again. */
  take(): number;
}

/**
 * Wraps `embedder` to time its calls, so a peer's ingest and search can be timed with and without
 * embedding in one pass: the peers await each embedding in line, so the time outside `embed` is
 * the memory's own work.
 */
export function timedEmbedder(embedder: Embedder): TimedEmbedder {
  let spentMs = 0;
  return {
    specificationVersion: embedder.specificationVersion,
    id: embedder.id,
    dimensions: embedder.dimensions,
    maxBatchSize: embedder.maxBatchSize,
    async embed(args) {
      const start = performance.now();
      try {
        return await embedder.embed(args);
      } finally {
        spentMs += performance.now() - start;
      }
    },
    take() {
      const spent = spentMs;
      spentMs = 0;
      return spent;
    },
  };
}
