import { createMemory, memoryStore, StrataError } from '@strata-memory/core';
import { cosine } from '@strata-memory/core/internals';
import { manualClock, testEmbedder } from '@strata-memory/core/test';
import { describe, expect, it } from 'vitest';
import { AI_MAJOR, MockEmbeddingModel } from '../../test/ai-under-test.ts';
import { aiSdkEmbedder } from './ai-sdk-embedder.ts';

/** A deterministic, non-normalised 3-d vector per text (length, vowels, 1). */
function rawVector(text: string): number[] {
  return [text.length, (text.match(/[aeiou]/g) ?? []).length, 1];
}

function mockModel(
  options: {
    maxEmbeddingsPerCall?: number;
    embed?: (values: string[]) => number[][] | Promise<number[][]>;
  } = {},
) {
  const embed = options.embed ?? ((values: string[]) => values.map(rawVector));
  return new MockEmbeddingModel({
    provider: 'mock-provider',
    modelId: 'mock-embedding',
    maxEmbeddingsPerCall: options.maxEmbeddingsPerCall ?? 2,
    supportsParallelCalls: false,
    doEmbed: async ({ values }) => ({ embeddings: await embed(values), warnings: [] }),
  });
}

async function rejection(promise: Promise<unknown>): Promise<StrataError> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StrataError');
}

describe(`aiSdkEmbedder on ai ${AI_MAJOR}`, () => {
  it('declares the model identity, dimensions and maxEmbeddingsPerCall as its batch size', () => {
    const embedder = aiSdkEmbedder({ model: mockModel({ maxEmbeddingsPerCall: 3 }), dimensions: 3 });
    expect(embedder).toMatchObject({
      specificationVersion: 'v1',
      id: 'mock-provider:mock-embedding',
      dimensions: 3,
      maxBatchSize: 3,
    });
  });

  it('batches within maxEmbeddingsPerCall, keeps order and returns unit vectors', async () => {
    const model = mockModel({ maxEmbeddingsPerCall: 2 });
    const embedder = aiSdkEmbedder({ model, dimensions: 3 });
    const texts = ['alpha', 'be', 'cooperation', 'd', 'eerie'];
    const vectors = await embedder.embed({ texts });

    expect(model.doEmbedCalls.map((call) => call.values)).toEqual([
      ['alpha', 'be'],
      ['cooperation', 'd'],
      ['eerie'],
    ]);
    expect(vectors).toHaveLength(texts.length);
    for (const [index, vector] of vectors.entries()) {
      expect(Math.hypot(...vector)).toBeCloseTo(1, 10);
      expect(cosine(vector, rawVector(texts[index]!))).toBeCloseTo(1, 10);
    }
  });

  it('returns nothing for no texts without calling the model', async () => {
    const model = mockModel();
    expect(await aiSdkEmbedder({ model, dimensions: 3 }).embed({ texts: [] })).toEqual([]);
    expect(model.doEmbedCalls).toHaveLength(0);
  });

  it('rejects vectors of the wrong length as model_output_invalid', async () => {
    const model = mockModel({ embed: (values) => values.map(() => [1, 2]) });
    const error = await rejection(aiSdkEmbedder({ model, dimensions: 3 }).embed({ texts: ['a'] }));
    expect(error.code).toBe('model_output_invalid');
    expect(error.details).toMatchObject({ dimensions: 2, expected: 3 });
  });

  it('rejects zero and non-finite vectors', async () => {
    const zero = mockModel({ embed: (values) => values.map(() => [0, 0, 0]) });
    expect(
      (await rejection(aiSdkEmbedder({ model: zero, dimensions: 3 }).embed({ texts: ['a'] }))).code,
    ).toBe('model_output_invalid');
    const nan = mockModel({ embed: (values) => values.map(() => [1, Number.NaN, 0]) });
    expect((await rejection(aiSdkEmbedder({ model: nan, dimensions: 3 }).embed({ texts: ['a'] }))).code).toBe(
      'model_output_invalid',
    );
  });

  it('reports a failing model as a retryable model_failure with its cause', async () => {
    const cause = new Error('rate limited');
    const model = mockModel({
      embed: () => {
        throw cause;
      },
    });
    const error = await rejection(
      aiSdkEmbedder({ model, dimensions: 3, maxRetries: 0 }).embed({ texts: ['a'] }),
    );
    expect(error.code).toBe('model_failure');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('rate limited');
  });

  it('validates its options', () => {
    const model = mockModel();
    expect(() => aiSdkEmbedder({ model, dimensions: 0 })).toThrow(StrataError);
    expect(() => aiSdkEmbedder({ model, dimensions: 1.5 })).toThrow(StrataError);
    expect(() => aiSdkEmbedder({ model: {} as never, dimensions: 3 })).toThrow(/EmbeddingModel/);
  });

  it('serves the engine: episodes are embedded in batches within maxEmbeddingsPerCall and found by vector', async () => {
    const lexical = testEmbedder(64);
    const model = mockModel({ maxEmbeddingsPerCall: 2, embed: (values) => lexical.embed({ texts: values }) });
    const memory = createMemory({
      store: memoryStore(),
      embedder: aiSdkEmbedder({ model, dimensions: 64 }),
      clock: manualClock(),
    });
    const scope = { userId: 'u1', threadId: 't1' };

    const observed = await memory.observe(scope, [
      { role: 'user', content: 'The warehouse in Porto closes at six.' },
      { role: 'assistant', content: 'Thanks, noted the Porto warehouse hours.' },
      { role: 'user', content: 'Invoices go to finance at the end of the month.' },
    ]);
    expect(observed.episodes).toHaveLength(3);
    expect(observed.episodes.every((e) => e.embedding?.length === 64)).toBe(true);
    expect(model.doEmbedCalls.length).toBeGreaterThanOrEqual(2);
    expect(model.doEmbedCalls.every((call) => call.values.length <= 2)).toBe(true);

    const context = await memory.recall(
      { userId: 'u1' },
      { query: 'warehouse Porto closing time', layers: ['episodes'] },
    );
    const top = context.sections.episodes[0];
    expect(top?.episode.text).toContain('Porto');
    expect(top?.scores.vector).toBeGreaterThan(0);
  });
});
