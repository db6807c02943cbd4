import { type Memory, type MemoryErrorEvent, type Scope, StrataError } from '@strata-memory/core';
import { generateText, stepCountIs, streamText, ToolLoopAgent, tool, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4';
import { AI_MAJOR, type Script, scriptedModel, systemMessages } from '../../test/ai-under-test.ts';
import { newMemory, outageStore, threadMessages } from '../../test/memory-fixtures.ts';
import { strataProviderOptions } from '../scope/request-scope.ts';
import { type StrataMiddlewareOptions, strataMiddleware } from './strata-middleware.ts';
import { withMemory } from './with-memory.ts';

const MEMORY_BLOCK = '<memory>';

function setup(script: Script, options: Partial<StrataMiddlewareOptions> & { memory?: Memory } = {}) {
  const memory = options.memory ?? newMemory();
  const scripted = scriptedModel(script);
  const errors: MemoryErrorEvent[] = [];
  const model = withMemory(scripted.model, {
    reportError: (event) => errors.push(event),
    ...options,
    memory,
  });
  return { memory, model, calls: scripted.calls, errors };
}

const strata = (scope: Scope) => ({ providerOptions: strataProviderOptions(scope) });

async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe(`strataMiddleware on ai ${AI_MAJOR}`, () => {
  describe('injecting memory', () => {
    it('recalls with the latest user message and inserts the context after the caller’s system message (generateText)', async () => {
      const { memory, model, calls } = setup([{ text: 'It is 30 days.' }]);
      const user = { userId: 'u1' };
      await memory.facts.remember(user, {
        entityType: 'supplier',
        entity: 'Supplier X',
        key: 'lead time',
        value: '30 days',
      });

      const result = await generateText({
        model,
        system: 'You are terse.',
        prompt: 'What is the lead time for Supplier X?',
        ...strata({ ...user, threadId: 't1' }),
      });

      expect(result.text).toBe('It is 30 days.');
      const prompt = calls[0]!.prompt;
      expect(prompt.map((m) => m.role)).toEqual(['system', 'system', 'user']);
      expect(prompt[0]).toEqual({ role: 'system', content: 'You are terse.' });
      const injected = systemMessages(calls[0])[1]!;
      expect(injected.startsWith(MEMORY_BLOCK)).toBe(true);
      expect(injected).toContain('30 days');
    });

    it('injects memory into streamText and observes the streamed answer once the stream ends', async () => {
      const { memory, model, calls } = setup([{ text: 'Lisbon is lovely in May.' }]);
      const scope = { userId: 'u1', threadId: 't1' };
      await memory.facts.remember(
        { userId: 'u1' },
        { entity: 'speaker', entityType: 'user', key: 'home city', value: 'Lisbon' },
      );

      const result = streamText({ model, prompt: 'Any travel tips for my home city?', ...strata(scope) });
      const chunks: string[] = [];
      for await (const chunk of result.textStream) chunks.push(chunk);

      expect(chunks.join('')).toBe('Lisbon is lovely in May.');
      expect(systemMessages(calls[0])[0]).toContain('Lisbon');
      const messages = await threadMessages(memory, scope);
      expect(messages.map((m) => [m.role, m.content])).toEqual([
        ['user', 'Any travel tips for my home city?'],
        ['assistant', 'Lisbon is lovely in May.'],
      ]);
    });

    it('adds no system message when memory has nothing for the scope', async () => {
      const { model, calls } = setup([{ text: 'Hello!' }]);
      await generateText({ model, prompt: 'Hi', ...strata({ userId: 'fresh', threadId: 't1' }) });
      expect(systemMessages(calls[0])).toEqual([]);
    });

    it('keeps the scope away from the provider and passes other provider options through', async () => {
      const { model, calls } = setup([{ text: 'ok' }]);
      await generateText({
        model,
        prompt: 'Hi',
        providerOptions: { openai: { user: 'abc' }, strata: { userId: 'u1', threadId: 't1' } },
      });
      expect(calls[0]!.providerOptions).toEqual({ openai: { user: 'abc' } });
    });
  });

  describe('remembering across sessions and users', () => {
    it('a second session remembers a fact stated in the first', async () => {
      const memory = newMemory();
      const first = setup([{ text: 'Noted.' }], { memory });
      await generateText({
        model: first.model,
        prompt: 'My favourite colour is teal.',
        ...strata({ userId: 'u1', threadId: 's1' }),
      });

      const second = setup([{ text: 'Teal.' }], { memory });
      await generateText({
        model: second.model,
        prompt: 'What is my favourite colour?',
        ...strata({ userId: 'u1', threadId: 's2' }),
      });

      expect(systemMessages(second.calls[0])[0]).toContain('teal');
      const facts = await memory.facts.list({ userId: 'u1' });
      expect(facts.map((f) => [f.key, f.value])).toContainEqual(['favourite colour', 'teal']);
    });

    it('two users of one organisation never see each other’s facts', async () => {
      const memory = newMemory();
      const { model, calls } = setup([{ text: 'Noted.' }], { memory, scope: { orgId: 'acme' } });
      await generateText({
        model,
        prompt: 'My favourite colour is teal.',
        ...strata({ userId: 'ana', threadId: 'a1' }),
      });
      await generateText({
        model,
        prompt: 'My favourite colour is crimson.',
        ...strata({ userId: 'ben', threadId: 'b1' }),
      });

      await generateText({
        model,
        prompt: 'What is my favourite colour?',
        ...strata({ userId: 'ana', threadId: 'a2' }),
      });
      await generateText({
        model,
        prompt: 'What is my favourite colour?',
        ...strata({ userId: 'ben', threadId: 'b2' }),
      });

      const anaContext = systemMessages(calls[2]).join('\n');
      const benContext = systemMessages(calls[3]).join('\n');
      expect(anaContext).toContain('teal');
      expect(anaContext).not.toContain('crimson');
      expect(benContext).toContain('crimson');
      expect(benContext).not.toContain('teal');
      const anaFacts = await memory.facts.list({ orgId: 'acme', userId: 'ana' });
      expect(anaFacts.map((f) => f.value)).not.toContain('crimson');
    });

    it('gives the model the block the engine renders for the same conversation: assistant turns as assistant', async () => {
      const turns = [
        { role: 'user' as const, content: 'I moved to Porto last spring.' },
        { role: 'assistant' as const, content: 'Porto is lovely in spring.' },
      ];
      const question = 'Where did I move last spring?';
      const [t1, t2] = [
        { userId: 'ada', threadId: 't1' },
        { userId: 'ada', threadId: 't2' },
      ];
      const { model, calls } = setup([{ text: turns[1]!.content }, { text: 'To Porto.' }]);
      await generateText({ model, prompt: turns[0]!.content, ...strata(t1) });
      await generateText({ model, prompt: question, ...strata(t2) });

      const reference = newMemory();
      await reference.observe(t1, turns);
      const expected = (await reference.recall(t2, { query: question })).render();
      expect(expected).toContain(`assistant: ${turns[1]!.content}`);
      expect(systemMessages(calls[1])[0]).toBe(expected);
    });
  });

  describe('once per turn in tool loops', () => {
    const lookupOrder = tool({
      description: 'Look up an order',
      inputSchema: z.object({ orderId: z.string() }),
      execute: async ({ orderId }) => ({ orderId, status: 'shipped' }),
    });
    const twoSteps: Script = [
      { toolCalls: [{ id: 'call-1', name: 'lookupOrder', input: { orderId: '42' } }] },
      { text: 'Order 42 has shipped.' },
    ];

    async function expectTurnObservedOnce(memory: Memory, scope: Scope) {
      const messages = await threadMessages(memory, scope);
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'assistant']);
      expect(messages[0]!.content).toBe('Where is order 42?');
      expect(messages[1]!.toolCalls).toEqual([
        { id: 'call-1', name: 'lookupOrder', input: { orderId: '42' } },
      ]);
      expect(messages[2]!.content).toBe('Order 42 has shipped.');
      const episodes = await memory.store.episodes.list({ scope: { userId: 'u1' }, limit: 100 });
      const texts = episodes.items.map((e) => e.text);
      expect(texts.filter((t) => t.includes('Where is order 42?'))).toHaveLength(1);
      expect(texts.filter((t) => t.includes('Order 42 has shipped.'))).toHaveLength(1);
    }

    it('generateText with a two-step tool loop: memory in both steps, the turn observed once', async () => {
      const { memory, model, calls } = setup(twoSteps);
      const scope = { userId: 'u1', threadId: 't1' };
      await memory.facts.remember(
        { userId: 'u1' },
        { entity: 'speaker', entityType: 'user', key: 'name', value: 'Ada' },
      );

      const result = await generateText({
        model,
        tools: { lookupOrder },
        stopWhen: stepCountIs(5),
        prompt: 'Where is order 42?',
        ...strata(scope),
      });

      expect(result.text).toBe('Order 42 has shipped.');
      expect(calls).toHaveLength(2);
      for (const call of calls) expect(systemMessages(call)[0]).toContain('Ada');
      await expectTurnObservedOnce(memory, scope);
    });

    it('streamText with a two-step tool loop observes the turn once', async () => {
      const { memory, model, calls } = setup(twoSteps);
      const scope = { userId: 'u1', threadId: 't1' };
      const result = streamText({
        model,
        tools: { lookupOrder },
        stopWhen: stepCountIs(5),
        prompt: 'Where is order 42?',
        ...strata(scope),
      });
      expect(await result.text).toBe('Order 42 has shipped.');
      expect(calls).toHaveLength(2);
      await expectTurnObservedOnce(memory, scope);
    });

    it('ToolLoopAgent: memory injected in every step, each turn observed once', async () => {
      const memory = newMemory();
      await memory.facts.remember(
        { userId: 'u1' },
        { entity: 'speaker', entityType: 'user', key: 'name', value: 'Ada' },
      );
      const scripted = scriptedModel((_call, index) =>
        index % 2 === 0
          ? { toolCalls: [{ id: `call-${index + 1}`, name: 'lookupOrder', input: { orderId: '42' } }] }
          : { text: index === 1 ? 'Order 42 has shipped.' : 'Still shipped.' },
      );
      const scope = { userId: 'u1', threadId: 't1' };
      const agent = new ToolLoopAgent({
        model: wrapLanguageModel({ model: scripted.model, middleware: strataMiddleware({ memory, scope }) }),
        tools: { lookupOrder },
        stopWhen: stepCountIs(5),
      });

      const first = await agent.generate({ prompt: 'Where is order 42?' });
      expect(first.text).toBe('Order 42 has shipped.');
      await expectTurnObservedOnce(memory, scope);

      const second = await agent.generate({ prompt: 'And now?' });
      expect(second.text).toBe('Still shipped.');
      expect(scripted.calls).toHaveLength(4);
      for (const call of scripted.calls) expect(systemMessages(call)[0]).toContain('Ada');
      const messages = await threadMessages(memory, scope);
      expect(messages.map((m) => m.content)).toEqual([
        'Where is order 42?',
        '',
        'Order 42 has shipped.',
        'And now?',
        '',
        'Still shipped.',
      ]);
    });

    it('ToolLoopAgent.stream: memory injected in every step, the turn observed once', async () => {
      const memory = newMemory();
      await memory.facts.remember(
        { userId: 'u1' },
        { entity: 'speaker', entityType: 'user', key: 'name', value: 'Ada' },
      );
      const scripted = scriptedModel(twoSteps);
      const scope = { userId: 'u1', threadId: 't1' };
      const agent = new ToolLoopAgent({
        model: withMemory(scripted.model, { memory, scope }),
        tools: { lookupOrder },
        stopWhen: stepCountIs(5),
      });
      const result = await agent.stream({ prompt: 'Where is order 42?' });
      expect(await result.text).toBe('Order 42 has shipped.');
      expect(scripted.calls).toHaveLength(2);
      for (const call of scripted.calls) expect(systemMessages(call)[0]).toContain('Ada');
      await expectTurnObservedOnce(memory, scope);
    });

    it('ToolLoopAgent takes the scope from its providerOptions', async () => {
      const memory = newMemory();
      const scripted = scriptedModel([{ text: 'Hello.' }]);
      const agent = new ToolLoopAgent({
        model: withMemory(scripted.model, { memory }),
        providerOptions: { strata: { userId: 'u7', threadId: 't7' } },
      });
      await agent.generate({ prompt: 'Hi there' });
      const messages = await threadMessages(memory, { userId: 'u7', threadId: 't7' });
      expect(messages.map((m) => m.content)).toEqual(['Hi there', 'Hello.']);
    });
  });

  describe('scope', () => {
    it('fails a request with no scope before calling the model, and stores nothing', async () => {
      const { model, calls } = setup([{ text: 'never' }]);
      const error = await rejection(generateText({ model, prompt: 'Hello' }));
      expect(StrataError.hasCode(error, 'invalid_scope')).toBe(true);
      expect((error as StrataError).message).toContain('providerOptions.strata');
      expect(calls).toHaveLength(0);
    });

    it('fails streamText with no scope too', async () => {
      const { model, calls } = setup([{ text: 'never' }]);
      const errors: unknown[] = [];
      const result = streamText({ model, prompt: 'Hello', onError: ({ error }) => void errors.push(error) });
      await result.consumeStream();
      expect(errors.some((e) => StrataError.hasCode(e, 'invalid_scope'))).toBe(true);
      expect(calls).toHaveLength(0);
    });

    it('adds request levels to a bound scope', async () => {
      const { memory, model } = setup([{ text: 'Hi Ada.' }], { scope: { orgId: 'acme' } });
      await generateText({ model, prompt: 'Hello', ...strata({ userId: 'u1', threadId: 't1' }) });
      const messages = await threadMessages(memory, { orgId: 'acme', userId: 'u1', threadId: 't1' });
      expect(messages.map((m) => m.content)).toEqual(['Hello', 'Hi Ada.']);
    });

    it('refuses a request that changes a bound level', async () => {
      const { model, calls } = setup([{ text: 'never' }], { scope: { orgId: 'acme', userId: 'u1' } });
      const error = await rejection(generateText({ model, prompt: 'Hello', ...strata({ userId: 'u2' }) }));
      expect(StrataError.hasCode(error, 'invalid_scope')).toBe(true);
      expect(calls).toHaveLength(0);
    });

    it('rejects a malformed bound scope when the middleware is created', () => {
      expect(() => strataMiddleware({ memory: newMemory(), scope: {} })).toThrow(StrataError);
    });
  });

  describe('failure policy', () => {
    it('continue (default): answers without memory when recall fails and reports the error', async () => {
      const outage = outageStore();
      const memory = newMemory(outage.store);
      await memory.facts.remember(
        { userId: 'u1' },
        { entity: 'speaker', entityType: 'user', key: 'name', value: 'Ada' },
      );
      outage.down = true;
      const { model, calls, errors } = setup([{ text: 'Hello, stranger.' }], { memory });

      const result = await generateText({
        model,
        system: 'Be kind.',
        prompt: 'Who am I?',
        ...strata({ userId: 'u1', threadId: 't1' }),
      });

      expect(result.text).toBe('Hello, stranger.');
      expect(systemMessages(calls[0])).toEqual(['Be kind.']);
      expect(errors.map((e) => e.phase)).toEqual(['recall', 'observe']);
      expect(StrataError.hasCode(errors[0]!.error, 'store_unavailable')).toBe(true);
      expect(errors[0]!.scope).toEqual({ userId: 'u1', threadId: 't1' });
    });

    it('throw: surfaces a recall failure and does not call the model', async () => {
      const outage = outageStore();
      outage.down = true;
      const { model, calls, errors } = setup([{ text: 'never' }], {
        memory: newMemory(outage.store),
        onError: 'throw',
      });
      const error = await rejection(
        generateText({ model, prompt: 'Hi', ...strata({ userId: 'u1', threadId: 't1' }) }),
      );
      expect(StrataError.hasCode(error, 'store_unavailable')).toBe(true);
      expect(calls).toHaveLength(0);
      expect(errors).toEqual([]);
    });

    it('an observation failure never loses the answer (generateText, even with onError: throw)', async () => {
      const outage = outageStore();
      const memory = newMemory(outage.store);
      const { model, errors } = setup(
        () => {
          outage.down = true;
          return { text: 'Here is your answer.' };
        },
        { memory, onError: 'throw' },
      );
      const result = await generateText({
        model,
        prompt: 'Question?',
        ...strata({ userId: 'u1', threadId: 't1' }),
      });
      expect(result.text).toBe('Here is your answer.');
      expect(errors.map((e) => e.phase)).toEqual(['observe']);
      expect(StrataError.hasCode(errors[0]!.error, 'store_unavailable')).toBe(true);
    });

    it('an observation failure never loses the answer (streamText)', async () => {
      const outage = outageStore();
      const memory = newMemory(outage.store);
      const { model, errors } = setup(
        () => {
          outage.down = true;
          return { text: 'Streamed answer survives.' };
        },
        { memory },
      );
      const result = streamText({ model, prompt: 'Question?', ...strata({ userId: 'u1', threadId: 't1' }) });
      let text = '';
      for await (const chunk of result.textStream) text += chunk;
      expect(text).toBe('Streamed answer survives.');
      expect(errors.map((e) => e.phase)).toEqual(['observe']);
    });

    it('reports to console.warn by default, and when the reporter itself throws', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const outage = outageStore();
      outage.down = true;
      const scripted = scriptedModel([{ text: 'ok' }]);
      const memory = newMemory(outage.store);
      await generateText({
        model: withMemory(scripted.model, { memory }),
        prompt: 'Hi',
        ...strata({ userId: 'u1', threadId: 't1' }),
      });
      expect(warn).toHaveBeenCalledTimes(2);
      expect(String(warn.mock.calls[0]![0])).toContain('recall failed');

      warn.mockClear();
      await generateText({
        model: withMemory(scripted.model, {
          memory,
          reportError: () => {
            throw new Error('reporter bug');
          },
        }),
        prompt: 'Hi',
        ...strata({ userId: 'u1', threadId: 't1' }),
      });
      expect(warn).toHaveBeenCalledTimes(2);
      expect(String(warn.mock.calls[0]![0])).toContain('reporter bug');
    });
  });

  describe('options', () => {
    it('validates its options with typed errors', () => {
      const memory = newMemory();
      const invalid = (options: unknown) => {
        try {
          strataMiddleware(options as StrataMiddlewareOptions);
        } catch (error) {
          return StrataError.hasCode(error, 'invalid_input');
        }
        return false;
      };
      expect(invalid({ memory: {} })).toBe(true);
      expect(invalid({ memory, onError: 'ignore' })).toBe(true);
      expect(invalid({ memory, recall: { budget: { tokens: 0 } } })).toBe(true);
      expect(invalid({ memory, recall: { layers: ['everything'] } })).toBe(true);
      expect(invalid({ memory, reportError: 'console' })).toBe(true);
    });

    it('passes the recall budget and layers to the engine', async () => {
      const memory = newMemory();
      const recall = vi.spyOn(memory, 'recall');
      const { model } = setup([{ text: 'ok' }], {
        memory,
        recall: { budget: { tokens: 300 }, layers: ['facts', 'episodes'], maxEpisodes: 5 },
      });
      await generateText({ model, prompt: 'What do you know?', ...strata({ userId: 'u1', threadId: 't1' }) });
      expect(recall).toHaveBeenCalledWith(
        { userId: 'u1', threadId: 't1' },
        {
          query: 'What do you know?',
          budget: { tokens: 300 },
          layers: ['facts', 'episodes'],
          maxEpisodes: 5,
        },
      );
    });
  });
});
