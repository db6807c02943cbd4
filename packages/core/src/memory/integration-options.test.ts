import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { memoryStore } from '../store/memory/memory-store.ts';
import { createMemory } from './create-memory.ts';
import { integrationOptionFields, recallOptionsFor } from './integration-options.ts';

describe('integration options', () => {
  const schema = z.object({ ...integrationOptionFields, scope: z.unknown().optional() }).strict();
  const memory = createMemory({ store: memoryStore() });

  it('accept a memory, recall settings, a principal and the failure policy', () => {
    const parsed = schema.parse({
      memory,
      principal: { id: 'u1', role: 'manager' },
      recall: { budget: { tokens: 500 }, layers: ['facts', 'episodes'], maxEpisodes: 10 },
      onError: 'throw',
    });
    expect(parsed.recall?.layers).toEqual(['facts', 'episodes']);
  });

  it('refuse what is not a memory, an empty layer list, an unknown layer or an unknown option', () => {
    for (const options of [
      { memory: {} },
      { memory, recall: { layers: [] } },
      { memory, recall: { layers: ['everything'] } },
      { memory, recall: { budget: { tokens: 0 } } },
      { memory, onError: 'ignore' },
      { memory, verbose: true },
    ]) {
      expect(schema.safeParse(options).success, JSON.stringify(Object.keys(options))).toBe(false);
    }
  });

  it('recallOptionsFor combines the settings with the call’s query and principal', () => {
    expect(recallOptionsFor(undefined, { query: undefined })).toEqual({});
    expect(
      recallOptionsFor(
        { budget: { tokens: 300 }, layers: ['facts'], maxEpisodes: 5 },
        { query: 'lead time', principal: { id: 'p' } },
      ),
    ).toEqual({
      query: 'lead time',
      budget: { tokens: 300 },
      layers: ['facts'],
      maxEpisodes: 5,
      principal: { id: 'p' },
    });
  });
});
