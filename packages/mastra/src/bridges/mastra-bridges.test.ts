import { createMemory, memoryStore, StrataError } from '@strata-memory/core';
import { manualClock } from '@strata-memory/core/test';
import { describe, expect, it } from 'vitest';
import { conversation, scriptedModel, systemText } from '../../test/model-fixtures.ts';
import { mastraCompletionModel } from './mastra-completion-model.ts';
import { mastraExtractor } from './mastra-extractor.ts';
import { mastraSummarizer } from './mastra-summarizer.ts';

async function rejection(promise: Promise<unknown>): Promise<StrataError> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StrataError');
}

describe('mastraCompletionModel', () => {
  it('sends the system text as instructions and the prompt as the user message, once', async () => {
    const { model, prompts } = scriptedModel(() => 'a summary');
    const completion = mastraCompletionModel({ model, temperature: 0 });
    expect(completion.id).toBe('mastra:test:scripted');
    expect(await completion.complete({ system: 'You summarise.', prompt: 'Summarise this.' })).toBe(
      'a summary',
    );
    expect(prompts).toHaveLength(1);
    expect(systemText(prompts[0]!)).toContain('You summarise.');
    expect(conversation(prompts[0]!)).toEqual(['user: Summarise this.']);
  });

  it('puts a JSON Schema in the instructions and hands the reply back as text for the engine to judge', async () => {
    const { model, prompts } = scriptedModel(() => 'Sure! {"facts": []}');
    const schema = { type: 'object', properties: { facts: { type: 'array' } } };
    const answer = await mastraCompletionModel({ model }).complete({
      system: 'Extract.',
      prompt: 'p',
      jsonSchema: schema,
    });
    expect(answer).toBe('Sure! {"facts": []}');
    expect(systemText(prompts[0]!)).toContain(JSON.stringify(schema));
  });

  it('reports a failing model as model_failure', async () => {
    const { model } = scriptedModel(() => {
      throw new Error('provider overloaded');
    });
    const error = await rejection(
      mastraCompletionModel({ model, id: 'm' }).complete({ system: 's', prompt: 'p' }),
    );
    expect(error.code).toBe('model_failure');
    expect(error.message).toContain('mastraCompletionModel(m)');
  });

  it('validates its options', () => {
    const { model } = scriptedModel(() => 'x');
    expect(() => mastraCompletionModel({ model: 42 as never })).toThrow(StrataError);
    expect(() => mastraCompletionModel({ model, temperature: 5 })).toThrow(/temperature/);
  });
});

describe('mastraExtractor and mastraSummarizer', () => {
  const scope = { userId: 'ada', threadId: 't1' };

  it('extract facts through the Mastra model with one call per observed turn', async () => {
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
      entities: [],
      relations: [],
    });
    const { model, prompts } = scriptedModel(() => `Here you go:\n${reply}`);
    const memory = createMemory({
      store: memoryStore(),
      extractor: mastraExtractor({ model }),
      clock: manualClock(),
    });
    const result = await memory.observe(scope, {
      role: 'user',
      content: 'Supplier X needs 45 days from order to delivery.',
    });
    expect(prompts).toHaveLength(1);
    expect(result.extraction).toMatchObject({ ok: true, extractor: 'model:mastra:test:scripted' });
    expect(result.facts.written.map((f) => [f.entityId, f.key, f.value])).toEqual([
      ['supplier x', 'lead time', '45 days'],
    ]);
  });

  it('write the rolling summary, which the fidelity guard accepts only with every literal', async () => {
    const turns = [
      { role: 'user' as const, content: 'Supplier X sent the invoice: $4,200 for the steel beams.' },
      ...Array.from({ length: 15 }, (_, i) => ({
        role: (i % 2 === 0 ? 'assistant' : 'user') as 'user' | 'assistant',
        content: `Small talk number ${i + 1} about the weather and lunch plans for the team offsite.`,
      })),
    ];
    for (const faithful of [true, false]) {
      const { model } = scriptedModel((prompt) => {
        const user = conversation(prompt).join('\n');
        const literals = [...(user.split('MUST KEEP')[1] ?? '').matchAll(/^- (.+)$/gm)].map((m) => m[1]!);
        return faithful ? `Earlier: ${literals.join(', ')}.` : 'Some small talk happened.';
      });
      const memory = createMemory({
        store: memoryStore(),
        summarizer: mastraSummarizer({ model }),
        clock: manualClock(),
      });
      await memory.observe(scope, turns, { extract: false });
      await memory.recall(scope, { query: 'lunch plans', budget: { tokens: 300 } });
      const stored = (await memory.store.threads.get({ scope }))?.summary ?? '';
      expect(stored).toContain('$4,200');
      if (faithful) expect(stored).toMatch(/^Earlier: /);
      else expect(stored).not.toContain('Some small talk happened.');
    }
  });
});

describe('mastraExtractor, turn by turn', () => {
  const scope = { userId: 'ada', threadId: 't1' };
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
    const { model, prompts } = scriptedModel((prompt) => {
      // The prompt quotes earlier turns as context; the turn to answer follows "NEW MESSAGES".
      const text = JSON.stringify(prompt).split('NEW MESSAGES')[1] ?? '';
      return turns.find(([turn]) => text.includes(turn))?.[1] ?? '{}';
    });
    const memory = createMemory({
      store: memoryStore(),
      extractor: mastraExtractor({ model }),
      clock: manualClock(),
    });
    const results = [];
    for (const [content] of turns) results.push(await memory.observe(scope, { role: 'user', content }));

    expect(prompts).toHaveLength(turns.length);
    expect(results.map((r) => r.extraction.ok)).toEqual([true, true, true, true, false]);
    expect(results.every((r) => r.episodes.length === 1)).toBe(true);
    const history = await memory.facts.history(scope, { entity: 'Berlin warehouse', key: 'shipping cutoff' });
    expect(history.map((f) => f.value)).toEqual(['4 pm', '3 pm', '2:30 pm']);
    const review = await memory.review.list(scope, { status: ['pending'] });
    expect(review.map((r) => [r.proposal.value, r.proposal.kind])).toEqual([['5 pm', 'hypothetical']]);
    const audit = await memory.audit.list({ userId: 'ada' }, { actions: ['extract.failed'] });
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]!.details.raw).toBe(turns[4]![1]);
  });
});
