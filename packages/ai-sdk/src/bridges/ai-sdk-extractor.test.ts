import { createMemory, memoryStore } from '@strata-memory/core';
import { manualClock } from '@strata-memory/core/test';
import { describe, expect, it } from 'vitest';
import { AI_MAJOR, scriptedModel } from '../../test/ai-under-test.ts';
import { aiSdkExtractor } from './ai-sdk-extractor.ts';

const scope = { userId: 'u1', threadId: 't1' };

function memoryWith(reply: string) {
  const scripted = scriptedModel([{ text: reply }]);
  const memory = createMemory({
    store: memoryStore(),
    extractor: aiSdkExtractor({ model: scripted.model, maxRetries: 0 }),
    clock: manualClock(),
  });
  return { memory, calls: scripted.calls };
}

describe(`aiSdkExtractor on ai ${AI_MAJOR}`, () => {
  it('extracts facts through the AI SDK model with one JSON call per observed turn', async () => {
    const reply = JSON.stringify({
      facts: [
        {
          message: 1,
          entityType: 'supplier',
          entity: 'Supplier X',
          key: 'lead time',
          value: '45 days',
          confidence: 0.95,
          kind: 'statement',
          evidence: 'Supplier X needs 45 days',
        },
      ],
      entities: [{ message: 1, name: 'Supplier X', type: 'supplier' }],
      relations: [],
    });
    const { memory, calls } = memoryWith(reply);

    const result = await memory.observe(scope, [
      { role: 'user', content: 'Supplier X needs 45 days from order to delivery.' },
      { role: 'assistant', content: 'Noted.' },
    ]);

    expect(calls).toHaveLength(1);
    expect(calls[0]!.responseFormat).toMatchObject({ type: 'json' });
    expect(result.extraction).toMatchObject({ ok: true, extractor: 'model:mock-provider:mock-model-id' });
    expect(result.facts.written.map((f) => [f.entityId, f.key, f.value])).toEqual([
      ['supplier x', 'lead time', '45 days'],
    ]);
  });

  it('records malformed output and still stores the turn', async () => {
    const { memory } = memoryWith('I think the lead time is 45 days.');

    const result = await memory.observe(scope, { role: 'user', content: 'Supplier X needs 45 days.' });

    expect(result.extraction.ok).toBe(false);
    expect(result.messages).toHaveLength(1);
    expect(result.episodes).toHaveLength(1);
    expect(result.facts.written).toEqual([]);
    const audit = await memory.audit.list({ userId: 'u1' }, { actions: ['extract.failed'] });
    expect(audit.items).toHaveLength(1);
  });
});
