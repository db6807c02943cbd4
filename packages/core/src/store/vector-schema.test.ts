import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { LIMITS } from './limits.ts';
import { memoryStore } from './memory/memory-store.ts';
import { vectorSchema } from './schemas.ts';

const provenance = { source: 'api' as const, at: 1 };
const scope = { userId: 'u' };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error.code;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('vectorSchema', () => {
  it('accepts finite numbers and returns a copy', () => {
    const input = [0.5, -1, 0, 3e-8];
    const parsed = vectorSchema.parse(input);
    expect(parsed).toEqual(input);
    expect(parsed).not.toBe(input);
  });

  it('rejects what is not a non-empty array of finite numbers, naming the bad element', () => {
    for (const bad of [
      [],
      [1, Number.NaN],
      [Number.POSITIVE_INFINITY],
      [1, '2'],
      [1, null],
      'x',
      { 0: 1 },
      undefined,
    ]) {
      expect(vectorSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    const issue = vectorSchema.safeParse([1, 2, Number.NaN]).error!.issues[0]!;
    expect(issue.path).toEqual([2]);
    const tooBig = vectorSchema.safeParse(new Array(LIMITS.maxDimensions + 1).fill(0)).error!.issues[0]!;
    expect(tooBig.code).toBe('too_big');
  });

  it('makes a store keep its own copy and refuse bad vectors with typed errors, storing nothing', async () => {
    const store = memoryStore();
    const embedding = [0.6, 0.8];
    await store.episodes.put({
      episodes: [{ id: 'e1', scope, text: 'hello', occurredAt: 1, embedding, provenance }],
    });
    embedding[0] = 99;
    const [stored] = await store.episodes.get({ scope, ids: ['e1'] });
    expect(stored!.embedding).toEqual([0.6, 0.8]);
    const put = (vector: unknown) =>
      store.episodes.put({
        episodes: [{ id: 'bad', scope, text: 'x', occurredAt: 1, embedding: vector as number[], provenance }],
      });
    expect(await codeOf(put([1, Number.NaN]))).toBe('invalid_input');
    expect(await codeOf(put(new Array(LIMITS.maxDimensions + 1).fill(0.1)))).toBe('payload_too_large');
    expect(await codeOf(store.episodes.searchVector({ scope, vector: [] }))).toBe('invalid_input');
    expect(await store.episodes.count({ scope })).toBe(1);
  });
});
