import { describe, expect, it } from 'vitest';
import { hashEmbedder } from './hash-embedder.ts';
import { measureUnrelatedSimilarity } from './unrelated-similarity.ts';

describe('measureUnrelatedSimilarity', () => {
  it('puts the hashing embedder at or below what it declares, at every size', async () => {
    for (const dimensions of [16, 32, 64, 256, 1024, 4096]) {
      const embedder = hashEmbedder({ dimensions });
      const measured = await measureUnrelatedSimilarity(embedder);
      expect(measured.pairs).toEqual({ unrelated: 264, related: 24 });
      expect(embedder.unrelatedSimilarity).toBeGreaterThanOrEqual(measured.unrelated);
    }
  });
});
