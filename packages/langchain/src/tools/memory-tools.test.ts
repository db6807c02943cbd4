import { ToolMessage } from '@langchain/core/messages';
import { createAgent, FakeToolCallingModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { newMemory, strataRejection } from '../../test/memory-fixtures.ts';
import { strataMemoryTools } from './memory-tools.ts';

type Call = { name: string; args: Record<string, unknown>; id: string };

/** Runs an agent whose model calls `calls` (one step), then answers; returns the tool messages. */
async function runTools(args: {
  tools: ReturnType<typeof strataMemoryTools>;
  calls: Call[];
  context?: Record<string, string>;
  threadId?: string;
}): Promise<Array<{ name: string; output: unknown; status: string | undefined }>> {
  const model = new FakeToolCallingModel({ toolCalls: [args.calls, []] });
  const agent = createAgent({ model, tools: args.tools });
  const result = await agent.invoke(
    { messages: [{ role: 'user', content: 'go' }] },
    {
      ...(args.context ? { context: args.context } : {}),
      ...(args.threadId ? { configurable: { thread_id: args.threadId } } : {}),
    },
  );
  return result.messages.filter(ToolMessage.isInstance).map((m) => ({
    name: m.name ?? '',
    output: m.status === 'error' || !m.text.startsWith('{') ? m.text : JSON.parse(m.text),
    status: m.status,
  }));
}

describe('strataMemoryTools', () => {
  it('are four LangChain tools with the memory tools’ names and schemas', () => {
    const tools = strataMemoryTools({ memory: newMemory() });
    expect(tools.map((t) => t.name)).toEqual(['remember', 'recall', 'forget', 'correct']);
    for (const t of tools) expect(t.description.length).toBeGreaterThan(20);
  });

  it('remember a fact and a note at the run’s scope, then recall them, inside a real agent', async () => {
    const memory = newMemory();
    const tools = strataMemoryTools({ memory, scope: { orgId: 'acme' } });
    const [remembered, noted] = await runTools({
      tools,
      context: { userId: 'ada' },
      threadId: 't1',
      calls: [
        {
          name: 'remember',
          id: 'c1',
          args: {
            kind: 'fact',
            entity: 'Supplier X',
            entityType: 'supplier',
            key: 'lead time',
            value: '45 days',
          },
        },
        { name: 'remember', id: 'c2', args: { kind: 'note', text: 'Ada prefers invoices by email.' } },
      ],
    });
    expect(remembered!.output).toMatchObject({
      stored: 'fact',
      confirmed: false,
      fact: { entityType: 'supplier', entity: 'supplier x', key: 'lead time', value: '45 days', version: 1 },
    });
    expect(noted!.output).toMatchObject({ stored: 'note', duplicates: 0 });
    const fact = await memory.facts.get(
      { orgId: 'acme', userId: 'ada' },
      { entity: 'Supplier X', key: 'lead time' },
    );
    expect(fact?.scope).toEqual({ orgId: 'acme', userId: 'ada' });

    const [recalled] = await runTools({
      tools,
      context: { userId: 'ada' },
      calls: [
        { name: 'recall', id: 'c3', args: { query: 'How does Ada want invoices, and the lead time?' } },
      ],
    });
    const output = recalled!.output as { context: string; items: Array<{ layer: string; text: string }> };
    expect(output.context).toContain('45 days');
    expect(output.items.map((i) => i.layer)).toEqual(expect.arrayContaining(['facts', 'episodes']));
    expect(output.items.some((i) => i.text.includes('invoices by email'))).toBe(true);

    const [other] = await runTools({
      tools,
      context: { userId: 'bob' },
      calls: [{ name: 'recall', id: 'c4', args: { query: 'lead time invoices email' } }],
    });
    expect((other!.output as { items: unknown[] }).items).toEqual([]);
  });

  it('correct supersedes the value; forget deletes an item only inside the caller’s scope', async () => {
    const memory = newMemory();
    const tools = strataMemoryTools({ memory });
    const ada = { userId: 'ada' };
    const { fact } = await memory.facts.remember(ada, {
      entity: 'Supplier X',
      key: 'lead time',
      value: '45 days',
    });

    const [corrected] = await runTools({
      tools,
      context: ada,
      calls: [
        { name: 'correct', id: 'c1', args: { entity: 'Supplier X', key: 'lead time', value: '30 days' } },
      ],
    });
    expect(corrected!.output).toMatchObject({
      fact: { value: '30 days', version: 2 },
      previous: { value: '45 days', status: 'superseded' },
    });

    const [denied] = await runTools({
      tools,
      context: { userId: 'bob' },
      calls: [{ name: 'forget', id: 'c2', args: { id: fact!.id } }],
    });
    expect(denied!.output).toEqual({ deleted: false });
    expect(await memory.facts.get(ada, { entity: 'Supplier X', key: 'lead time' })).not.toBeNull();

    const [forgotten] = await runTools({
      tools,
      context: ada,
      calls: [{ name: 'forget', id: 'c3', args: { id: fact!.id } }],
    });
    expect(forgotten!.output).toEqual({ deleted: true, layer: 'facts' });
    expect(await memory.facts.get(ada, { entity: 'Supplier X', key: 'lead time' })).toBeNull();
  });

  it('takes the scope from a scope function of the agent’s context', async () => {
    const memory = newMemory();
    const tools = strataMemoryTools({
      memory,
      scope: ({ context }) => ({ userId: (context as { user_id: string }).user_id }),
    });
    const model = new FakeToolCallingModel({
      toolCalls: [
        [
          {
            name: 'remember',
            id: 'c1',
            args: { kind: 'fact', entity: 'speaker', key: 'city', value: 'Porto' },
          },
        ],
        [],
      ],
    });
    const agent = createAgent({ model, tools, contextSchema: z.object({ user_id: z.string() }) });
    await agent.invoke({ messages: [{ role: 'user', content: 'go' }] }, { context: { user_id: 'u7' } });
    expect((await memory.facts.list({ userId: 'u7' })).map((f) => f.value)).toEqual(['Porto']);
  });

  it('without a scope the tool call fails and nothing is stored', async () => {
    const memory = newMemory();
    const [result] = await runTools({
      tools: strataMemoryTools({ memory }),
      calls: [{ name: 'remember', id: 'c1', args: { kind: 'note', text: 'orphan' } }],
    });
    expect(result!.output).toContain('no scope');
    const [remember] = strataMemoryTools({ memory });
    expect((await strataRejection(remember.invoke({ kind: 'note', text: 'x' }))).code).toBe('invalid_scope');
  });

  it('rejects malformed input before storing anything', async () => {
    const memory = newMemory();
    const [remember] = strataMemoryTools({ memory, scope: { userId: 'ada' } });
    await expect(remember.invoke({ kind: 'fact', entity: 'Supplier X' })).rejects.toThrow(/a fact needs key/);
    expect(await memory.facts.list({ userId: 'ada' })).toEqual([]);
  });

  it('validates its options', () => {
    const memory = newMemory();
    expect(() => strataMemoryTools({ memory, scope: { teamId: 'x' } as never })).toThrow(/scope/);
    expect(() => strataMemoryTools({ memory, recallBudgetTokens: 1 })).toThrow(/recallBudgetTokens/);
  });
});
