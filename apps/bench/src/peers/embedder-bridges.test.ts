import { hashEmbedder } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { StrataEmbeddings, strataEmbeddingModel } from './embedder-bridges.ts';

describe('embedder bridges', () => {
  const embedder = { ...hashEmbedder(), maxBatchSize: 2 };
  const texts = ['the beagle puppy', 'pottery classes', 'a half marathon', 'moving to Lisbon', 'kiln'];

  it('gives LangChain the embedder’s vectors, split into its batch size', async () => {
    const calls: number[] = [];
    const counting = {
      ...embedder,
      embed: (args: Parameters<typeof embedder.embed>[0]) => {
        calls.push(args.texts.length);
        return embedder.embed(args);
      },
    };
    const embeddings = new StrataEmbeddings(counting);
    expect(await embeddings.embedDocuments(texts)).toEqual(await embedder.embed({ texts }));
    expect(calls).toEqual([2, 2, 1]);
    expect(await embeddings.embedQuery('pottery classes')).toEqual(
      (await embedder.embed({ texts: ['pottery classes'], purpose: 'query' }))[0],
    );
  });

  it('gives Mastra an AI SDK v3 embedding model over the embedder', async () => {
    const model = strataEmbeddingModel(embedder);
    expect(model).toMatchObject({
      specificationVersion: 'v3',
      modelId: embedder.id,
      maxEmbeddingsPerCall: 2,
    });
    if (typeof model !== 'object' || !('doEmbed' in model) || model.specificationVersion !== 'v3') {
      throw new Error('not a v3 embedding model');
    }
    const result = await model.doEmbed({ values: texts.slice(0, 2) });
    expect(result.embeddings).toEqual(await embedder.embed({ texts: texts.slice(0, 2) }));
  });
});
