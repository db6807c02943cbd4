import { AIMessage, type BaseMessage, SystemMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { type Memory, type MemoryErrorEvent, StrataError } from '@strata-memory/core';
import { createAgent, createMiddleware, FakeToolCallingModel } from 'langchain';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4';
import { newMemory, outageStore } from '../../test/memory-fixtures.ts';
import { strataMemoryMiddleware } from './strata-memory-middleware.ts';

const user = (content: string) => ({ messages: [{ role: 'user' as const, content }] });
const run = (userId: string, threadId: string) => ({
  context: { userId },
  configurable: { thread_id: threadId },
});

/** The system message text the model saw on each call. */
function systemTexts(calls: Array<{ messages: BaseMessage[] }>): string[] {
  return calls.map((call) =>
    call.messages
      .filter(SystemMessage.isInstance)
      .map((m) => m.text)
      .join('\n'),
  );
}

function answering(...texts: string[]) {
  const model = fakeModel();
  for (const text of texts) model.respond(new AIMessage(text));
  return model;
}

async function threadMessages(memory: Memory, scope: { userId: string; threadId: string }) {
  return (await memory.store.threads.listMessages({ scope })).map((m) => [
    m.role,
    m.content,
    m.toolCalls?.length ?? 0,
  ]);
}

describe('strataMemoryMiddleware in createAgent', () => {
  it('appends the memory block to the agent’s system prompt', async () => {
    const memory = newMemory();
    await memory.facts.remember(
      { userId: 'ada' },
      { entityType: 'supplier', entity: 'Supplier X', key: 'lead time', value: '30 days' },
    );
    const model = answering('It is 30 days.');
    const agent = createAgent({
      model,
      systemPrompt: 'You are terse.',
      middleware: [strataMemoryMiddleware({ memory })],
    });
    const result = await agent.invoke(user('What is the lead time for Supplier X?'), run('ada', 't1'));
    expect(result.messages.at(-1)!.text).toBe('It is 30 days.');
    const [system] = systemTexts(model.calls);
    expect(system!.startsWith('You are terse.\n\n<memory>')).toBe(true);
    expect(system).toContain('supplier supplier x · lead time: 30 days');
    expect(model.calls[0]!.messages.filter(SystemMessage.isInstance)).toHaveLength(1);
  });

  it('recalls a fact from thread 1 in thread 2 of the same user, never for another user', async () => {
    const memory = newMemory();
    const model = answering('Noted.', 'It is 45 days.', 'I do not know.');
    const agent = createAgent({ model, middleware: [strataMemoryMiddleware({ memory })] });

    await agent.invoke(user("Supplier X's lead time is 45 days."), run('ada', 'monday'));
    await agent.invoke(user('What is the lead time of Supplier X?'), run('ada', 'thursday'));
    await agent.invoke(user('What is the lead time of Supplier X?'), run('bob', 'friday'));

    const [, adaLater, bob] = systemTexts(model.calls);
    expect(adaLater).toContain('lead time: 45 days');
    expect(adaLater).not.toContain('Recent conversation'); // a new thread: no working memory carried over
    expect(bob).not.toContain('45 days');
  });

  it('observes a tool loop once, after the agent has finished', async () => {
    const memory = newMemory();
    const observe = vi.spyOn(memory, 'observe');
    const lookup = tool(async ({ supplier }) => `${supplier}: 45 days`, {
      name: 'lookup',
      description: 'Looks up a supplier’s lead time.',
      schema: z.object({ supplier: z.string() }),
    });
    const model = new FakeToolCallingModel({
      toolCalls: [[{ name: 'lookup', args: { supplier: 'X' }, id: 'call-1' }], []],
    });
    const agent = createAgent({ model, tools: [lookup], middleware: [strataMemoryMiddleware({ memory })] });
    await agent.invoke(user('How long does Supplier X take?'), run('ada', 't1'));

    expect(observe).toHaveBeenCalledTimes(1);
    expect(await threadMessages(memory, { userId: 'ada', threadId: 't1' })).toEqual([
      ['user', 'How long does Supplier X take?', 0],
      ['assistant', expect.any(String), 1],
      ['assistant', expect.any(String), 0],
    ]);
    const [, toolCall] = await memory.store.threads.listMessages({
      scope: { userId: 'ada', threadId: 't1' },
    });
    expect(toolCall!.toolCalls).toEqual([{ id: 'call-1', name: 'lookup', input: { supplier: 'X' } }]);
  });

  it('recalls before every model call of a tool loop', async () => {
    const memory = newMemory();
    const recall = vi.spyOn(memory, 'recall');
    const noop = tool(async () => 'done', {
      name: 'noop',
      description: 'Does nothing.',
      schema: z.object({}),
    });
    const model = new FakeToolCallingModel({ toolCalls: [[{ name: 'noop', args: {}, id: 'c1' }], []] });
    const agent = createAgent({ model, tools: [noop], middleware: [strataMemoryMiddleware({ memory })] });
    await agent.invoke(user('Run the tool.'), run('ada', 't1'));
    expect(recall).toHaveBeenCalledTimes(2);
    expect(recall.mock.calls.map(([, options]) => options?.query)).toEqual([
      'Run the tool.',
      'Run the tool.',
    ]);
  });

  it('with a checkpointer, each run observes only its own turn', async () => {
    const memory = newMemory();
    const model = answering('Hi Ada.', 'You are Ada.');
    const agent = createAgent({
      model,
      checkpointer: new MemorySaver(),
      middleware: [strataMemoryMiddleware({ memory, recall: { layers: ['facts', 'episodes', 'graph'] } })],
    });
    await agent.invoke(user('My name is Ada.'), run('ada', 't1'));
    const second = await agent.invoke(user('What is my name?'), run('ada', 't1'));
    expect(second.messages).toHaveLength(4);
    expect(await threadMessages(memory, { userId: 'ada', threadId: 't1' })).toEqual([
      ['user', 'My name is Ada.', 0],
      ['assistant', 'Hi Ada.', 0],
      ['user', 'What is my name?', 0],
      ['assistant', 'You are Ada.', 0],
    ]);
  });

  it('binds a scope and lets each run add levels, never change them', async () => {
    const memory = newMemory();
    const model = answering('ok', 'never');
    const agent = createAgent({
      model,
      middleware: [strataMemoryMiddleware({ memory, scope: { orgId: 'acme' } })],
    });
    await agent.invoke(user('Our budget is $4,200.'), run('ada', 't1'));
    expect((await memory.facts.list({ orgId: 'acme', userId: 'ada' })).map((f) => f.value)).toEqual([
      '$4,200',
    ]);

    const conflicting = createAgent({
      model,
      middleware: [strataMemoryMiddleware({ memory, scope: { orgId: 'acme', userId: 'ada' } })],
    });
    const error = await conflicting.invoke(user('hi'), run('mallory', 't2')).catch((e: unknown) => e);
    expect(StrataError.from(error)?.code).toBe('invalid_scope');
    expect(model.callCount).toBe(1);
  });

  it('fails the run without a scope, before the model is called', async () => {
    const model = answering('never');
    const agent = createAgent({ model, middleware: [strataMemoryMiddleware({ memory: newMemory() })] });
    const error = await agent.invoke(user('hi')).catch((e: unknown) => e);
    // LangChain wraps it (MiddlewareError); the documented check sees through the wrapper
    expect(StrataError.isInstance(error)).toBe(false);
    expect(StrataError.hasCode(error, 'invalid_scope')).toBe(true);
    expect(model.callCount).toBe(0);
  });

  it('reads the scope through a scope function and its context schema', async () => {
    const memory = newMemory();
    const model = answering('ok');
    const contextSchema = z.object({ tenant: z.string(), account: z.string() });
    const agent = createAgent({
      model,
      contextSchema,
      middleware: [
        strataMemoryMiddleware({
          memory,
          contextSchema,
          scope: ({ context, configurable }) => {
            const { tenant, account } = context as z.infer<typeof contextSchema>;
            return { orgId: tenant, userId: account, threadId: configurable?.thread_id as string };
          },
        }),
      ],
    });
    await agent.invoke(user('My favourite city is Lisbon.'), {
      context: { tenant: 'acme', account: 'ada' },
      configurable: { thread_id: 't1' },
    });
    expect((await memory.facts.list({ orgId: 'acme', userId: 'ada' })).map((f) => f.value)).toEqual([
      'Lisbon',
    ]);
    expect(
      await memory.store.threads.listMessages({ scope: { orgId: 'acme', userId: 'ada', threadId: 't1' } }),
    ).toHaveLength(2);
  });

  it('leaves the system prompt alone when there is nothing to recall, and composes with other middleware', async () => {
    const memory = newMemory();
    const model = answering('first', 'second');
    const base = createMiddleware({
      name: 'Base',
      wrapModelCall: (request, handler) => handler({ ...request, systemPrompt: 'Base prompt.' }),
    });
    const agent = createAgent({ model, middleware: [base, strataMemoryMiddleware({ memory })] });
    await agent.invoke(user('Hello there'), run('ada', 't1'));
    await agent.invoke(user('And again'), run('ada', 't1'));
    const [first, second] = systemTexts(model.calls);
    expect(first).toBe('Base prompt.');
    expect(second!.startsWith('Base prompt.\n\n<memory>')).toBe(true);
    expect(second).toContain('Hello there');
  });

  it('keeps the blocks of a structured system message (e.g. cache control) and adds the memory after them', async () => {
    const memory = newMemory();
    await memory.facts.remember(
      { userId: 'ada' },
      { entity: 'speaker', entityType: 'user', key: 'name', value: 'Ada' },
    );
    const model = answering('ok');
    const systemPrompt = new SystemMessage({
      content: [{ type: 'text', text: 'Cached instructions.', cache_control: { type: 'ephemeral' } }],
    });
    const agent = createAgent({ model, systemPrompt, middleware: [strataMemoryMiddleware({ memory })] });
    await agent.invoke(user('What is my name?'), run('ada', 't1'));
    const sent = model.calls[0]!.messages[0] as SystemMessage;
    expect(Array.isArray(sent.content)).toBe(true);
    expect((sent.content as Array<Record<string, unknown>>)[0]).toMatchObject({
      text: 'Cached instructions.',
      cache_control: { type: 'ephemeral' },
    });
    expect(sent.text).toContain('name: Ada');
  });

  describe('failure policy', () => {
    it('recall down: the model answers without memory and the failure is reported', async () => {
      const outage = outageStore();
      const memory = newMemory(outage.store);
      const errors: MemoryErrorEvent[] = [];
      const model = answering('ok');
      const agent = createAgent({
        model,
        systemPrompt: 'Base.',
        middleware: [strataMemoryMiddleware({ memory, reportError: (e) => errors.push(e) })],
      });
      outage.down = true;
      const result = await agent.invoke(user('hi'), run('ada', 't1'));
      expect(result.messages.at(-1)!.text).toBe('ok');
      expect(systemTexts(model.calls)).toEqual(['Base.']);
      expect(errors.map((e) => [e.phase, StrataError.from(e.error)?.code])).toEqual([
        ['recall', 'store_unavailable'],
        ['observe', 'store_unavailable'],
      ]);
      expect(errors[0]!.scope).toEqual({ userId: 'ada', threadId: 't1' });
    });

    it('recall down with onError "throw": the run fails with the engine’s error', async () => {
      const outage = outageStore();
      const model = answering('never');
      const agent = createAgent({
        model,
        middleware: [strataMemoryMiddleware({ memory: newMemory(outage.store), onError: 'throw' })],
      });
      outage.down = true;
      const error = await agent.invoke(user('hi'), run('ada', 't1')).catch((e: unknown) => e);
      expect(StrataError.from(error)?.code).toBe('store_unavailable');
      expect(model.callCount).toBe(0);
    });

    it('observation fails: the answer is still returned', async () => {
      const memory = newMemory();
      vi.spyOn(memory, 'observe').mockRejectedValue(new Error('disk full'));
      const errors: MemoryErrorEvent[] = [];
      const agent = createAgent({
        model: answering('the answer'),
        middleware: [strataMemoryMiddleware({ memory, reportError: (e) => errors.push(e) })],
      });
      const result = await agent.invoke(user('hi'), run('ada', 't1'));
      expect(result.messages.at(-1)!.text).toBe('the answer');
      expect(errors.map((e) => e.phase)).toEqual(['observe']);
    });
  });

  it('validates its options', () => {
    const memory = newMemory();
    expect(() => strataMemoryMiddleware({ memory: {} as never })).toThrow(/Memory/);
    expect(() => strataMemoryMiddleware({ memory, scope: {} })).toThrow(/scope/);
    expect(() => strataMemoryMiddleware({ memory, recall: { layers: [] } })).toThrow(/layers/);
    expect(() => strataMemoryMiddleware({ memory, onError: 'ignore' as never })).toThrow(/onError/);
  });

  it('gives the model the block the engine renders for the same conversation: assistant turns as assistant', async () => {
    const turns = [
      { role: 'user' as const, content: 'I moved to Porto last spring.' },
      { role: 'assistant' as const, content: 'Porto is lovely in spring.' },
    ];
    const question = 'Where did I move last spring?';
    const memory = newMemory();
    const model = answering(turns[1]!.content, 'To Porto.');
    const agent = createAgent({ model, middleware: [strataMemoryMiddleware({ memory })] });
    await agent.invoke(user(turns[0]!.content), run('ada', 't1'));
    await agent.invoke(user(question), run('ada', 't2'));

    const reference = newMemory();
    await reference.observe({ userId: 'ada', threadId: 't1' }, turns);
    const expected = (
      await reference.recall({ userId: 'ada', threadId: 't2' }, { query: question })
    ).render();
    expect(expected).toContain(`assistant: ${turns[1]!.content}`);
    expect(systemTexts(model.calls)[1]).toBe(expected);
  });
});
