import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { type Embedder, PORT_SPECIFICATION_VERSION } from '../ports/ports.ts';
import { embedInBatches } from './embed-batches.ts';

function fakeEmbedder(options: { maxBatchSize: number; reply?: (texts: string[]) => unknown }): Embedder & {
  batches: number[];
} {
  const batches: number[] = [];
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: 'fake',
    dimensions: 2,
    maxBatchSize: options.maxBatchSize,
    batches,
    async embed({ texts }) {
      batches.push(texts.length);
      return (options.reply?.(texts) ?? texts.map((t) => [t.length, 1])) as number[][];
    },
  };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error.code;
    throw error;
  }
  return 'resolved';
}

describe('embedInBatches', () => {
  it('splits by maxBatchSize, keeps order and returns unit vectors', async () => {
    const embedder = fakeEmbedder({ maxBatchSize: 2 });
    const vectors = await embedInBatches({ embedder, texts: ['a', 'bbb', 'cc', 'dddd', 'e'] });
    expect(embedder.batches).toEqual([2, 2, 1]);
    expect(vectors).toHaveLength(5);
    const [x, y] = vectors[1]!;
    expect(Math.hypot(x!, y!)).toBeCloseTo(1, 10);
    expect(x! / y!).toBeCloseTo(3, 10);
  });

  it('reports a throwing embedder as model_failure', async () => {
    const embedder = fakeEmbedder({
      maxBatchSize: 8,
      reply: () => {
        throw new Error('quota');
      },
    });
    expect(await codeOf(embedInBatches({ embedder, texts: ['a'] }))).toBe('model_failure');
  });

  it.each([
    ['a wrong count', () => [[1, 0]]],
    ['a wrong length', (texts: string[]) => texts.map(() => [1, 0, 0])],
    ['a non-finite number', (texts: string[]) => texts.map(() => [Number.NaN, 1])],
    ['a zero vector', (texts: string[]) => texts.map(() => [0, 0])],
  ])('reports %s as model_failure', async (_, reply) => {
    const embedder = fakeEmbedder({ maxBatchSize: 8, reply });
    expect(await codeOf(embedInBatches({ embedder, texts: ['a', 'b'] }))).toBe('model_failure');
  });
});
