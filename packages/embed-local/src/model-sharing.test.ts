import { describe, expect, it } from 'vitest';
import { localEmbedder } from './index.ts';

// Its own file, so the model is not loaded yet when the test starts.
describe('model loading', () => {
  it('waits for the first embed, and concurrent first calls share one load', async () => {
    const first = localEmbedder();
    const second = localEmbedder({ cacheSize: 0 });
    expect(first.stats()).toMatchObject({ modelLoads: 0, loadMs: undefined });
    const results = await Promise.all([
      first.embed({ texts: ['one'] }),
      first.embed({ texts: ['two'] }),
      second.embed({ texts: ['three'] }),
    ]);
    expect(results.map((vectors) => vectors.length)).toEqual([1, 1, 1]);
    expect(first.stats().modelLoads).toBe(1);
    expect(second.stats().modelLoads).toBe(1);
    // The very same load: both report its duration.
    expect(first.stats().loadMs).toBeGreaterThan(0);
    expect(second.stats().loadMs).toBe(first.stats().loadMs);
  });
});
