import { AIMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { FakeChatModel } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import { strataRejection } from '../../test/memory-fixtures.ts';
import { ScriptedChatModel } from '../../test/scripted-chat-model.ts';
import { langChainCompletionModel } from './langchain-completion-model.ts';

const schema = {
  type: 'object',
  properties: { facts: { type: 'array', items: { type: 'string' } } },
  required: ['facts'],
  additionalProperties: false,
};

describe('langChainCompletionModel', () => {
  it('sends the system text and prompt as messages and returns the reply text', async () => {
    const model = fakeModel().respond(new AIMessage('a summary'));
    const completion = langChainCompletionModel({ model });
    expect(completion.id).toBe('langchain:fake-model-builder');
    expect(await completion.complete({ system: 'You summarise.', prompt: 'Summarise this.' })).toBe(
      'a summary',
    );
    expect(model.calls[0]!.messages.map((m) => [m.getType(), m.text])).toEqual([
      ['system', 'You summarise.'],
      ['human', 'Summarise this.'],
    ]);
  });

  it('asks through withStructuredOutput and returns the parsed object as JSON', async () => {
    const model = new ScriptedChatModel([
      new AIMessage({
        content: '',
        tool_calls: [{ id: 'c1', name: 'memory_output', args: { facts: ['lead time is 30 days'] } }],
      }),
    ]);
    const answer = await langChainCompletionModel({ model }).complete({
      system: 'Extract facts.',
      prompt: 'The lead time is 30 days.',
      jsonSchema: schema,
    });
    expect(JSON.parse(answer)).toEqual({ facts: ['lead time is 30 days'] });
    expect(JSON.stringify(model.boundTools[0])).toContain('"parameters":{"type":"object"');
  });

  it('returns a reply that did not parse as it was, for the engine to record', async () => {
    const model = new ScriptedChatModel([new AIMessage('I think the lead time is 30 days.')]);
    const answer = await langChainCompletionModel({ model }).complete({
      system: 'Extract facts.',
      prompt: 'The lead time is 30 days.',
      jsonSchema: schema,
    });
    expect(answer).toBe('I think the lead time is 30 days.');
  });

  it('uses a model’s own withStructuredOutput result', async () => {
    const model = fakeModel().structuredResponse({ facts: ['x'] });
    const answer = await langChainCompletionModel({ model }).complete({
      system: 's',
      prompt: 'p',
      jsonSchema: schema,
    });
    expect(JSON.parse(answer)).toEqual({ facts: ['x'] });
  });

  it('puts the schema in the prompt when the model has no structured output', async () => {
    const model = new FakeChatModel({});
    const answer = await langChainCompletionModel({ model }).complete({
      system: 'Extract.',
      prompt: 'p',
      jsonSchema: schema,
    });
    // FakeChatModel echoes the messages it was sent.
    expect(answer).toContain('Answer with JSON only, matching this JSON Schema');
    expect(answer).toContain('"required":["facts"]');
    const prompted = await langChainCompletionModel({
      model: new ScriptedChatModel([new AIMessage('{"facts":[]}')]),
      structuredOutput: 'prompt',
    }).complete({ system: 'Extract.', prompt: 'p', jsonSchema: schema });
    expect(prompted).toBe('{"facts":[]}');
  });

  it('reports a failing call as model_failure', async () => {
    const model = new ScriptedChatModel([new Error('overloaded')]);
    const error = await strataRejection(
      langChainCompletionModel({ model }).complete({ system: 's', prompt: 'p' }),
    );
    expect(error.code).toBe('model_failure');
    expect(error.message).toContain('overloaded');
  });

  it('validates its options', () => {
    expect(() => langChainCompletionModel({ model: {} as never })).toThrow(/chat model/);
    expect(() => langChainCompletionModel({ model: fakeModel(), structuredOutput: 'json' as never })).toThrow(
      /structuredOutput/,
    );
  });
});
