import { describe, expect, it } from 'vitest';
import { defaultPolicy } from '../engine/policy.ts';
import { StrataError } from '../errors/strata-error.ts';
import { RULES_EXTRACTOR_ID } from '../extract/rules-extractor.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock, testEmbedder } from '../test/index.ts';
import { createMemory } from './create-memory.ts';

function thrown(fn: () => unknown): StrataError {
  try {
    fn();
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StrataError');
}

describe('createMemory', () => {
  it('works with only a store, filling in the defaults', async () => {
    const memory = createMemory({ store: memoryStore() });
    expect(memory.policy).toEqual(defaultPolicy);
    expect(memory.tokenizer.id).toBe('tiktoken:o200k_base');
    const result = await memory.observe({ userId: 'u' }, { role: 'user', content: 'My name is Ada.' });
    expect(result.extraction).toEqual({ extractor: RULES_EXTRACTOR_ID, ok: true });
    expect(result.facts.written.map((f) => [f.entityType, f.entityId, f.key, f.value])).toEqual([
      ['user', 'u', 'name', 'Ada'],
    ]);
  });

  it('merges policy overrides and uses the given clock', async () => {
    const clock = manualClock('2030-01-01T00:00:00Z');
    const memory = createMemory({
      store: memoryStore(),
      clock,
      policy: { staleAfterDays: 7, longTermScope: 'thread' },
    });
    expect(memory.policy.staleAfterDays).toBe(7);
    expect(memory.policy.reviewThreshold).toBe(0.75);
    const result = await memory.observe({ userId: 'u', threadId: 't' }, { role: 'user', content: 'Hello' });
    expect(result.episodes[0]!.occurredAt).toBe(clock.now());
  });

  it.each([
    ['no store', {}],
    ['a store that is not one', { store: { name: 'x' } }],
    [
      'an embedder without dimensions',
      { store: memoryStore(), embedder: { id: 'e', embed: async () => [] } },
    ],
    [
      'an embedder with a zero batch size',
      { store: memoryStore(), embedder: { ...testEmbedder(), maxBatchSize: 0 } },
    ],
    ['an extractor without extract()', { store: memoryStore(), extractor: { id: 'x' } }],
    ['a clock without now()', { store: memoryStore(), clock: {} }],
    ['an unknown option', { store: memoryStore(), cache: true }],
    ['an out-of-range policy', { store: memoryStore(), policy: { reviewThreshold: 3 } }],
    ['an unknown policy field', { store: memoryStore(), policy: { reviewTreshold: 0.5 } }],
  ])('rejects %s with invalid_input', (_, options) => {
    expect(thrown(() => createMemory(options as never)).code).toBe('invalid_input');
  });

  it('validates the scope of every entry point', async () => {
    const memory = createMemory({ store: memoryStore() });
    const bad = { orgId: 'acme', tenant: 'x' } as never;
    const calls: Array<() => Promise<unknown>> = [
      () => memory.observe(bad, { role: 'user', content: 'x' }),
      () => memory.recall(bad),
      () => memory.facts.get(bad, { entity: 'x', key: 'y' }),
      () => memory.graph.impact(bad, { node: { name: 'x' } }),
      () => memory.state.get(bad, 'k'),
      () => memory.ledger.claim(bad, 'k'),
      () => memory.review.list(bad),
      () => memory.audit.list(bad),
      () => memory.forget(bad),
      () => memory.forgetItem(bad, 'ep_1'),
      () => memory.consolidate({ scope: bad }),
    ];
    for (const call of calls) {
      await expect(call()).rejects.toSatisfy((e) => StrataError.hasCode(e, 'invalid_scope'));
    }
  });
});
