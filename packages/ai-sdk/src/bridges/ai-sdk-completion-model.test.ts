import { StrataError } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../test/ai-under-test.ts';
import { aiSdkCompletionModel } from './ai-sdk-completion-model.ts';

const schema = {
  type: 'object',
  properties: { facts: { type: 'array', items: { type: 'string' } } },
  required: ['facts'],
  additionalProperties: false,
};

async function rejection(promise: Promise<unknown>): Promise<StrataError> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StrataError');
}

describe('aiSdkCompletionModel', () => {
  it('sends the system text and prompt and returns the answer text', async () => {
    const { model, calls } = scriptedModel([{ text: 'a summary' }]);
    const completion = aiSdkCompletionModel({ model, temperature: 0 });
    expect(completion.id).toBe('mock-provider:mock-model-id');

    const answer = await completion.complete({ system: 'You summarise.', prompt: 'Summarise this.' });
    expect(answer).toBe('a summary');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.prompt).toEqual([
      { role: 'system', content: 'You summarise.' },
      { role: 'user', content: [{ type: 'text', text: 'Summarise this.' }] },
    ]);
    expect(calls[0]!.temperature).toBe(0);
    expect(calls[0]!.responseFormat?.type ?? 'text').toBe('text');
  });

  it('asks for JSON matching the schema and returns the JSON text', async () => {
    const { model, calls } = scriptedModel([{ text: '{"facts":["lead time is 30 days"]}' }]);
    const answer = await aiSdkCompletionModel({ model }).complete({
      system: 'Extract facts.',
      prompt: 'The lead time is 30 days.',
      jsonSchema: schema,
    });
    expect(JSON.parse(answer)).toEqual({ facts: ['lead time is 30 days'] });
    expect(calls[0]!.responseFormat).toMatchObject({ type: 'json', schema });
  });

  it('hands malformed JSON back unchanged for the engine to judge', async () => {
    const { model } = scriptedModel([{ text: 'Sure! Here are the facts: lead time 30 days' }]);
    const answer = await aiSdkCompletionModel({ model }).complete({
      system: 'Extract facts.',
      prompt: 'The lead time is 30 days.',
      jsonSchema: schema,
    });
    expect(answer).toBe('Sure! Here are the facts: lead time 30 days');
  });

  it('does not validate JSON against the schema (the engine does)', async () => {
    const { model } = scriptedModel([{ text: '{"facts": 42}' }]);
    const answer = await aiSdkCompletionModel({ model }).complete({
      system: 's',
      prompt: 'p',
      jsonSchema: schema,
    });
    expect(JSON.parse(answer)).toEqual({ facts: 42 });
  });

  it('reports a failing model as model_failure', async () => {
    const { model } = scriptedModel(() => {
      throw new Error('provider overloaded');
    });
    const error = await rejection(
      aiSdkCompletionModel({ model, maxRetries: 0 }).complete({ system: 's', prompt: 'p' }),
    );
    expect(error.code).toBe('model_failure');
    expect(error.message).toContain('provider overloaded');
  });

  it('validates its options', () => {
    expect(() => aiSdkCompletionModel({ model: {} as never })).toThrow(/LanguageModel/);
    const { model } = scriptedModel([{ text: 'x' }]);
    expect(() => aiSdkCompletionModel({ model, maxRetries: -1 })).toThrow(StrataError);
  });
});
