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

describe(`aiSdkExtractor on ai ${AI_MAJOR}, turn by turn`, () => {
  const fact = (value: string, kind: string, confidence = 0.9) => ({
    message: 1,
    entityType: 'warehouse',
    entity: 'Berlin warehouse',
    key: 'shipping cutoff',
    value,
    confidence,
    kind,
    evidence: value,
  });
  const reply = (facts: unknown) => JSON.stringify({ facts, entities: [], relations: [] });
  const turns: Array<[string, string]> = [
    ['The shipping cutoff for the Berlin warehouse is 4 pm.', reply([fact('4 pm', 'statement')])],
    [
      'Correction: the Berlin warehouse shipping cutoff is 3 pm, not 4 pm.',
      reply([fact('3 pm', 'correction')]),
    ],
    ['What if the Berlin warehouse cutoff moved to 5 pm?', reply([fact('5 pm', 'hypothetical', 0.3)])],
    [
      'Actually it changed again, the Berlin warehouse cutoff is now 2:30 pm.',
      reply([fact('2:30 pm', 'correction')]),
    ],
    // Valid JSON that does not fit the schema.
    ['And the Hamburg cutoff is 5 pm.', reply([{ ...fact('5 pm', 'statement'), confidence: 1.4 }])],
  ];

  it('makes one call per observed turn, keeps every value in order, queues the what-if and audits the misfit', async () => {
    const replies = new Map(turns);
    const scripted = scriptedModel((call) => {
      // The prompt quotes earlier turns as context; the turn to answer follows "NEW MESSAGES".
      const prompt = JSON.stringify(call.prompt).split('NEW MESSAGES')[1] ?? '';
      const turn = turns.find(([text]) => prompt.includes(text));
      return { text: turn ? replies.get(turn[0])! : '{}' };
    });
    const memory = createMemory({
      store: memoryStore(),
      extractor: aiSdkExtractor({ model: scripted.model, maxRetries: 0 }),
      clock: manualClock(),
    });
    const results = [];
    for (const [content] of turns) results.push(await memory.observe(scope, { role: 'user', content }));

    expect(scripted.calls).toHaveLength(turns.length);
    expect(results.map((r) => r.extraction.ok)).toEqual([true, true, true, true, false]);
    expect(results.every((r) => r.episodes.length === 1)).toBe(true);
    const history = await memory.facts.history(scope, { entity: 'Berlin warehouse', key: 'shipping cutoff' });
    expect(history.map((f) => f.value)).toEqual(['4 pm', '3 pm', '2:30 pm']);
    const review = await memory.review.list(scope, { status: ['pending'] });
    expect(review.map((r) => [r.proposal.value, r.proposal.kind])).toEqual([['5 pm', 'hypothetical']]);
    const audit = await memory.audit.list({ userId: 'u1' }, { actions: ['extract.failed'] });
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]!.details.raw).toBe(turns[4]![1]);
  });
});
