import { Embeddings } from '@langchain/core/embeddings';
import { createMemory, memoryStore, StrataError } from '@strata-memory/core';
import { cosine } from '@strata-memory/core/internals';
import { manualClock } from '@strata-memory/core/test';
import { describe, expect, it } from 'vitest';
import { LexicalEmbeddings } from '../../test/lexical-embeddings.ts';
import { strataRejection } from '../../test/memory-fixtures.ts';
import { langChainEmbedder } from './langchain-embedder.ts';

/** Returns whatever `embed` says, and records each batch. */
class ScriptedEmbeddings extends Embeddings {
  readonly batches: string[][] = [];
  readonly queries: string[] = [];
  readonly model = 'scripted-embedding';
  readonly embed: (texts: string[]) => unknown;
  constructor(embed: (texts: string[]) => unknown) {
    super({ maxRetries: 0 });
    this.embed = embed;
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.batches.push(texts);
    return this.embed(texts) as number[][];
  }
  async embedQuery(text: string): Promise<number[]> {
    this.queries.push(text);
    return (this.embed([`query: ${text}`]) as number[][])[0]!;
  }
}

const raw = (text: string) => [text.length, (text.match(/[aeiou]/g) ?? []).length, 1];

describe('langChainEmbedder', () => {
  it('declares identity, dimensions and batch size, and returns unit vectors in order', async () => {
    const embeddings = new ScriptedEmbeddings((texts) => texts.map(raw));
    const embedder = langChainEmbedder({ embeddings, dimensions: 3, maxBatchSize: 2 });
    expect(embedder).toMatchObject({
      specificationVersion: 'v1',
      id: 'langchain:ScriptedEmbeddings:scripted-embedding',
      dimensions: 3,
      maxBatchSize: 2,
    });
    const texts = ['alpha', 'be', 'cooperation'];
    const vectors = await embedder.embed({ texts });
    expect(embeddings.batches).toEqual([texts]);
    for (const [index, vector] of vectors.entries()) {
      expect(Math.hypot(...vector)).toBeCloseTo(1, 10);
      expect(cosine(vector, raw(texts[index]!))).toBeCloseTo(1, 10);
    }
    expect(await embedder.embed({ texts: [] })).toEqual([]);
    expect(embeddings.batches).toHaveLength(1);
  });

  it('embeds stored texts with embedDocuments and search queries with embedQuery', async () => {
    const embeddings = new ScriptedEmbeddings((texts) => texts.map(raw));
    const embedder = langChainEmbedder({ embeddings, dimensions: 3 });
    await embedder.embed({ texts: ['stored one', 'stored two'], purpose: 'document' });
    await embedder.embed({ texts: ['stored three'] });
    const [query] = await embedder.embed({ texts: ['what is stored?'], purpose: 'query' });
    expect(embeddings.batches).toEqual([['stored one', 'stored two'], ['stored three']]);
    expect(embeddings.queries).toEqual(['what is stored?']);
    expect(cosine(query!, raw('query: what is stored?'))).toBeCloseTo(1, 10);
  });

  it('rejects wrong counts, lengths, zero and non-finite vectors as model_output_invalid', async () => {
    const cases: Array<(texts: string[]) => unknown> = [
      () => [],
      (texts) => texts.map(() => [1, 2]),
      (texts) => texts.map(() => [0, 0, 0]),
      (texts) => texts.map(() => [1, Number.NaN, 0]),
      () => 'not vectors',
    ];
    for (const embed of cases) {
      const embedder = langChainEmbedder({ embeddings: new ScriptedEmbeddings(embed), dimensions: 3 });
      expect((await strataRejection(embedder.embed({ texts: ['a'] }))).code).toBe('model_output_invalid');
    }
  });

  it('reports a failing model as a retryable model_failure with its cause', async () => {
    const cause = new Error('rate limited');
    const embeddings = new ScriptedEmbeddings(() => {
      throw cause;
    });
    const error = await strataRejection(
      langChainEmbedder({ embeddings, dimensions: 3 }).embed({ texts: ['a'] }),
    );
    expect(error.code).toBe('model_failure');
    expect(error.retryable).toBe(true);
    expect(error.cause).toBe(cause);
  });

  it('validates its options', () => {
    const embeddings = new LexicalEmbeddings(8);
    expect(() => langChainEmbedder({ embeddings, dimensions: 0 })).toThrow(StrataError);
    expect(() => langChainEmbedder({ embeddings: {} as never, dimensions: 8 })).toThrow(/Embeddings/);
  });

  it('serves the engine: episodes get vectors and are found by vector search', async () => {
    const embeddings = new LexicalEmbeddings(64);
    const memory = createMemory({
      store: memoryStore(),
      embedder: langChainEmbedder({ embeddings, dimensions: 64 }),
      clock: manualClock(),
    });
    const observed = await memory.observe({ userId: 'u1', threadId: 't1' }, [
      { role: 'user', content: 'The warehouse in Porto closes at six.' },
      { role: 'user', content: 'Invoices go to finance at the end of the month.' },
    ]);
    expect(observed.episodes.every((e) => e.embedding?.length === 64)).toBe(true);
    const context = await memory.recall({ userId: 'u1' }, { query: 'Porto warehouse', layers: ['episodes'] });
    expect(context.sections.episodes[0]?.episode.text).toContain('Porto');
    expect(context.sections.episodes[0]?.scores.vector).toBeGreaterThan(0);
  });
});
