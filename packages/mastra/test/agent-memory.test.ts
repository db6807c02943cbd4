import { Agent } from '@mastra/core/agent';
import { type Memory, memoryStore, StrataError } from '@strata-memory/core';
import { describe, expect, it, vi } from 'vitest';
import { type MemoryErrorEvent, type StrataMemoryOptions, strataMemory } from '../src/index.ts';
import { newMemory, outageStore, threadMessages } from './memory-fixtures.ts';
import { conversation, lastUserText, type Reply, scriptedModel, systemText } from './model-fixtures.ts';

/** Answers "what is my name?" from the memory block only, everything else with "Noted." */
function nameReply(prompt: Parameters<typeof systemText>[0]): string {
  const question = lastUserText(prompt);
  if (!/what is my name/i.test(question)) return 'Noted.';
  const match = /· name: ([^·(\n]+?)(?: \(| ·|$)/m.exec(systemText(prompt));
  return match ? `Your name is ${match[1]}.` : 'I do not know your name.';
}

function setup(
  options: Partial<StrataMemoryOptions> = {},
  script: (p: never, i: number) => Reply = nameReply,
) {
  const memory: Memory = options.memory ?? newMemory();
  const scripted = scriptedModel(script as never);
  const agent = new Agent({
    id: 'assistant',
    name: 'assistant',
    instructions: 'You are a helpful assistant.',
    model: scripted.model,
    memory: strataMemory({ ...options, memory }),
  });
  return { memory, agent, prompts: scripted.prompts };
}

const ada = (thread: string) => ({ memory: { thread, resource: 'ada' } });

describe('a Mastra agent with Strata memory', () => {
  it('generate: the second turn on a thread sees the first exchange as history', async () => {
    const { agent, prompts } = setup();
    await agent.generate('I am planning a trip to Lisbon.', ada('t1'));
    await agent.generate('Which city did I mention?', ada('t1'));
    expect(conversation(prompts[1]!)).toEqual([
      'user: I am planning a trip to Lisbon.',
      'assistant: Noted.',
      'user: Which city did I mention?',
    ]);
    // The first call had no history and no memory block.
    expect(conversation(prompts[0]!)).toEqual(['user: I am planning a trip to Lisbon.']);
    expect(systemText(prompts[0]!)).not.toContain('<memory>');
  });

  it('recalls once per run: the window comes back as history, the block holds the rest', async () => {
    const { agent, memory, prompts } = setup();
    await agent.generate('My name is Ada.', ada('t1'));
    const recall = vi.spyOn(memory, 'recall');
    await agent.generate('What is my name?', ada('t1'));
    expect(recall).toHaveBeenCalledTimes(1);
    expect(recall.mock.calls[0]![1]?.layers).toEqual(['summary', 'facts', 'episodes', 'graph', 'working']);
    expect(conversation(prompts[1]!)).toEqual([
      'user: My name is Ada.',
      'assistant: Noted.',
      'user: What is my name?',
    ]);
    const block = systemText(prompts[1]!);
    expect(block).toContain('name: Ada');
    // The window's messages are not repeated inside the block.
    expect(block).not.toContain('Noted.');
  });

  it('history: false leaves the thread’s messages out, the block stays', async () => {
    const { agent, prompts } = setup({ history: false });
    await agent.generate('My name is Ada.', ada('t1'));
    await agent.generate('What is my name?', ada('t1'));
    expect(conversation(prompts[1]!)).toEqual(['user: What is my name?']);
    expect(systemText(prompts[1]!)).toContain('name: Ada');
  });

  it('stream: a streamed turn is remembered and the next streamed turn sees it', async () => {
    const { agent, memory, prompts } = setup();
    const first = await agent.stream('I am planning a trip to Lisbon.', ada('t1'));
    expect(await first.text).toBe('Noted.');
    const second = await agent.stream('Which city did I mention?', ada('t1'));
    await second.text;
    expect(conversation(prompts[1]!)).toEqual([
      'user: I am planning a trip to Lisbon.',
      'assistant: Noted.',
      'user: Which city did I mention?',
    ]);
    const stored = await threadMessages(memory, { userId: 'ada', threadId: 't1' });
    expect(stored.map((m) => `${m.role}: ${m.content}`)).toEqual([
      'user: I am planning a trip to Lisbon.',
      'assistant: Noted.',
      'user: Which city did I mention?',
      'assistant: Noted.',
    ]);
  });

  it('generate and stream share one thread', async () => {
    const { agent, prompts } = setup();
    await agent.generate('My name is Ada.', ada('t1'));
    const streamed = await agent.stream('What is my name?', ada('t1'));
    expect(await streamed.text).toBe('Your name is Ada.');
    expect(conversation(prompts[1]!).slice(0, 2)).toEqual(['user: My name is Ada.', 'assistant: Noted.']);
  });

  it('a new thread of the same resource recalls facts learned in the first', async () => {
    const { agent, prompts } = setup();
    await agent.generate('My name is Ada.', ada('monday'));
    const answer = await agent.generate('What is my name?', ada('thursday'));
    expect(answer.text).toBe('Your name is Ada.');
    // Long-term memory, not history: the new thread's prompt carries no earlier turn.
    expect(conversation(prompts[1]!)).toEqual(['user: What is my name?']);
    expect(systemText(prompts[1]!)).toMatch(/<memory>[\s\S]*Facts:[\s\S]*name: Ada/);
  });

  it('another resource never sees them', async () => {
    const { agent, prompts } = setup();
    await agent.generate('My name is Ada.', ada('monday'));
    const answer = await agent.generate('What is my name?', { memory: { thread: 'bob-1', resource: 'bob' } });
    expect(answer.text).toBe('I do not know your name.');
    expect(systemText(prompts[1]!)).not.toContain('Ada');
    expect(conversation(prompts[1]!)).toEqual(['user: What is my name?']);
  });

  it('refuses a thread owned by another resource and stores nothing for the intruder', async () => {
    const { agent, memory, prompts } = setup();
    await agent.generate('My name is Ada.', ada('ada-private'));
    await expect(
      agent.generate('What is my name?', { memory: { thread: 'ada-private', resource: 'mallory' } }),
    ).rejects.toThrow(/belongs to resource "ada"|belongs to another resource/);
    expect(prompts).toHaveLength(1);
    expect(await memory.store.threads.lookup({ threadId: 'ada-private' })).toHaveLength(1);
    expect(await memory.facts.list({ userId: 'mallory' })).toEqual([]);
    expect(await threadMessages(memory, { userId: 'ada', threadId: 'ada-private' })).toHaveLength(2);
  });

  it('observes a turn exactly once, even when Mastra also saves it through saveMessages', async () => {
    const { agent, memory } = setup();
    const mastraMemory = (await agent.getMemory())!;
    await agent.generate('My name is Ada.', ada('t1'));
    const scope = { userId: 'ada', threadId: 't1' };
    const before = await threadMessages(memory, scope);
    const episodes = await memory.store.episodes.count({ scope: { userId: 'ada' } });
    // What a per-step save or a suspension flush hands to saveMessages: the same messages, same ids.
    const recalled = await mastraMemory.recall({ threadId: 't1', resourceId: 'ada', perPage: false });
    await mastraMemory.saveMessages({ messages: recalled.messages });
    expect(await threadMessages(memory, scope)).toEqual(before);
    expect(await memory.store.episodes.count({ scope: { userId: 'ada' } })).toBe(episodes);
    expect(before).toHaveLength(2);
  });

  it('remembers nothing from a read-only run, but still recalls', async () => {
    const { agent, memory, prompts } = setup();
    await agent.generate('My name is Ada.', ada('t1'));
    await agent.generate('What is my name?', {
      memory: { thread: 't2', resource: 'ada', options: { readOnly: true } },
    });
    expect(systemText(prompts[1]!)).toContain('name: Ada');
    expect(await threadMessages(memory, { userId: 'ada', threadId: 't2' })).toEqual([]);
  });

  it('runs without memory when called without thread and resource', async () => {
    const { agent, memory, prompts } = setup();
    await agent.generate('My name is Ada.');
    expect(systemText(prompts[0]!)).not.toContain('<memory>');
    expect(await memory.store.threads.lookup({ threadId: 't1' })).toEqual([]);
  });

  it('keeps threads of the bound org and agent apart from other namespaces', async () => {
    const memory = newMemory();
    const acme = setup({ memory, orgId: 'acme', agentId: 'support' });
    const globex = setup({ memory, orgId: 'globex', agentId: 'support' });
    await acme.agent.generate('My name is Ada.', ada('t1'));
    const other = await globex.agent.generate('What is my name?', ada('t1'));
    expect(other.text).toBe('I do not know your name.');
    expect((await memory.store.threads.lookup({ threadId: 't1' })).map((t) => t.scope)).toEqual(
      expect.arrayContaining([
        { orgId: 'acme', userId: 'ada', agentId: 'support', threadId: 't1' },
        { orgId: 'globex', userId: 'ada', agentId: 'support', threadId: 't1' },
      ]),
    );
  });
});

describe('memory tools', () => {
  it('a model can remember a fact, and a later thread recalls it', async () => {
    const { agent, memory, prompts } = setup({}, (prompt: never, call) => {
      if (call === 0) {
        return {
          toolCalls: [
            {
              name: 'remember',
              input: {
                kind: 'fact',
                entity: 'Supplier X',
                entityType: 'supplier',
                key: 'lead time',
                value: '45 days',
              },
            },
          ],
        };
      }
      if (call === 1) return 'I will remember that.';
      return nameReply(prompt);
    });
    const result = await agent.generate('Please remember the lead time of Supplier X: 45 days.', ada('t1'));
    expect(result.text).toBe('I will remember that.');
    const fact = await memory.facts.get({ userId: 'ada' }, { entity: 'Supplier X', key: 'lead time' });
    expect(fact?.value).toBe('45 days');
    await agent.generate('What is the lead time of Supplier X?', ada('t2'));
    expect(systemText(prompts[2]!)).toMatch(/supplier x · lead time: 45 days/);
    // One observation for the whole tool loop: user turn, the assistant's tool call and its answer.
    const stored = await threadMessages(memory, { userId: 'ada', threadId: 't1' });
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(stored[1]!.toolCalls?.map((c) => c.name)).toEqual(['remember']);
    // Back on the first thread, the history replays the tool call with its result.
    await agent.generate('Thanks.', ada('t1'));
    const replay = prompts[3]!;
    expect(replay.some((m) => m.role === 'tool')).toBe(true);
    expect(JSON.stringify(replay)).toContain('"stored":"fact"');
    expect(conversation(replay)).toEqual([
      'user: Please remember the lead time of Supplier X: 45 days.',
      'assistant: I will remember that.',
      'user: Thanks.',
    ]);
  });

  it('a streamed tool loop is observed once, when the stream has been read', async () => {
    const { agent, memory } = setup({}, (_prompt: never, call) =>
      call === 0
        ? {
            toolCalls: [
              { name: 'remember', input: { kind: 'fact', entity: 'Ada', key: 'city', value: 'Lisbon' } },
            ],
          }
        : 'Saved.',
    );
    const result = await agent.stream('Remember that I live in Lisbon.', ada('t1'));
    expect(await result.text).toBe('Saved.');
    const stored = await threadMessages(memory, { userId: 'ada', threadId: 't1' });
    expect(stored.map((m) => [m.role, m.content])).toEqual([
      ['user', 'Remember that I live in Lisbon.'],
      ['assistant', 'Saved.'],
    ]);
    expect(stored[1]!.toolCalls?.map((c) => c.name)).toEqual(['remember']);
    expect((await memory.facts.get({ userId: 'ada' }, { entity: 'Ada', key: 'city' }))?.value).toBe('Lisbon');
  });

  it('recall, correct and forget act on the run’s resource only', async () => {
    const memory = newMemory();
    await memory.facts.remember(
      { userId: 'ada' },
      { entity: 'Supplier X', key: 'lead time', value: '45 days' },
    );
    await memory.facts.remember(
      { userId: 'bob' },
      { entity: 'Supplier Y', key: 'lead time', value: '10 days' },
    );
    const bobFact = await memory.facts.get({ userId: 'bob' }, { entity: 'Supplier Y', key: 'lead time' });
    const toolResults: unknown[] = [];
    const { agent } = setup({ memory }, (prompt: never, call) => {
      const results = (prompt as Array<{ role: string; content: unknown }>)
        .filter((m) => m.role === 'tool')
        .flatMap((m) => m.content as Array<{ output: unknown }>);
      if (call === 0) return { toolCalls: [{ name: 'recall', input: { query: 'lead time' } }] };
      if (call === 1) {
        toolResults.push(results.at(-1));
        return {
          toolCalls: [
            { name: 'correct', input: { entity: 'Supplier X', key: 'lead time', value: '30 days' } },
            { name: 'forget', input: { id: bobFact!.id } },
          ],
        };
      }
      toolResults.push(...results.slice(-2));
      return 'Done.';
    });
    await agent.generate('No, the lead time is 30 days. Also drop the other supplier.', ada('t1'));
    const recallOutput = JSON.stringify(toolResults[0]);
    expect(recallOutput).toContain('supplier x · lead time: 45 days');
    expect(recallOutput).not.toContain('Supplier Y');
    const history = await memory.facts.history({ userId: 'ada' }, { entity: 'Supplier X', key: 'lead time' });
    expect(history.map((f) => [f.value, f.status])).toEqual([
      ['45 days', 'superseded'],
      ['30 days', 'active'],
    ]);
    // Bob's fact is not visible from Ada's scope: the forget call deletes nothing.
    expect(JSON.stringify(toolResults[2])).toContain('"deleted":false');
    expect(
      await memory.facts.get({ userId: 'bob' }, { entity: 'Supplier Y', key: 'lead time' }),
    ).not.toBeNull();
  });

  it('forget deletes an item of the run’s resource', async () => {
    const memory = newMemory();
    const { fact } = await memory.facts.remember(
      { userId: 'ada' },
      { entity: 'Ada', key: 'city', value: 'Lisbon' },
    );
    const { agent } = setup({ memory }, (_prompt: never, call) =>
      call === 0 ? { toolCalls: [{ name: 'forget', input: { id: fact!.id } }] } : 'Forgotten.',
    );
    await agent.generate('Forget my city.', ada('t1'));
    expect(await memory.facts.get({ userId: 'ada' }, { entity: 'Ada', key: 'city' })).toBeNull();
  });

  it('a note is long-term memory, not a turn of the thread', async () => {
    const { agent, memory } = setup({}, (_prompt: never, call) =>
      call === 0
        ? {
            toolCalls: [{ name: 'remember', input: { kind: 'note', text: 'Ada prefers morning meetings.' } }],
          }
        : 'Noted.',
    );
    await agent.generate('Remember that I prefer morning meetings.', ada('t1'));
    const episodes = await memory.store.episodes.list({ scope: { userId: 'ada' } });
    expect(episodes.items.map((e) => e.text)).toContain('Ada prefers morning meetings.');
    const thread = await threadMessages(memory, { userId: 'ada', threadId: 't1' });
    expect(thread.map((m) => m.content)).not.toContain('Ada prefers morning meetings.');
  });

  it('lists the tools asked for, and only recall for a read-only run', () => {
    const all = strataMemory({ memory: newMemory() });
    expect(Object.keys(all.listTools())).toEqual(['remember', 'recall', 'forget', 'correct']);
    expect(Object.keys(all.listTools({ readOnly: true }))).toEqual(['recall']);
    expect(Object.keys(strataMemory({ memory: newMemory(), tools: ['recall'] }).listTools())).toEqual([
      'recall',
    ]);
    expect(strataMemory({ memory: newMemory(), tools: false }).listTools()).toEqual({});
  });
});

/**
 * The messages of an error's `cause` chain. Mastra runs processors as a workflow and serializes
 * their errors, so a processor's StrataError reaches the caller as text inside Mastra's error.
 */
function causeMessages(error: unknown): string[] {
  const out: string[] = [];
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause)
    out.push(String((e as Error).message));
  return out;
}

describe('failure policy', () => {
  const storeDown = () => {
    throw new StrataError({ code: 'store_unavailable', message: 'store is down', retryable: true });
  };

  it('recall failure: the run goes on without memory and the error is reported', async () => {
    const memory = newMemory();
    const events: MemoryErrorEvent[] = [];
    const { agent, prompts } = setup({ memory, reportError: (e) => events.push(e) });
    await agent.generate('My name is Ada.', ada('t1'));
    memory.recall = async () => storeDown();
    const answer = await agent.generate('What is my name?', ada('t1'));
    expect(answer.text).toBe('I do not know your name.');
    expect(events.map((e) => e.phase)).toEqual(['recall']);
    expect(StrataError.hasCode(events[0]!.error, 'store_unavailable')).toBe(true);
    expect(systemText(prompts[1]!)).not.toContain('<memory>');
    // The turn is still remembered.
    expect(await threadMessages(memory, { userId: 'ada', threadId: 't1' })).toHaveLength(4);
  });

  it("recall failure with onError: 'throw' fails the run with the engine's error", async () => {
    const memory = newMemory();
    const { agent, prompts } = setup({ memory, onError: 'throw' });
    memory.recall = async () => storeDown();
    const error = await agent.generate('Hello.', ada('t1')).catch((e: unknown) => e);
    expect(causeMessages(error).join('\n')).toContain('store is down');
    expect(prompts).toHaveLength(0);
  });

  it('observe failure: the answer is returned and the error reported', async () => {
    const outage = outageStore(memoryStore());
    const events: MemoryErrorEvent[] = [];
    const { agent } = setup({ memory: newMemory(outage.store), reportError: (e) => events.push(e) }, () => {
      // The store goes down while the model answers, after recall.
      outage.down = true;
      return 'Noted.';
    });
    const answer = await agent.generate('My name is Ada.', ada('t1'));
    expect(answer.text).toBe('Noted.');
    expect(events.map((e) => e.phase)).toEqual(['observe']);
    expect(StrataError.hasCode(events[0]!.error, 'store_unavailable')).toBe(true);
    outage.down = false;
  });
});

describe('the memory block', () => {
  it('is the block the engine renders for the same conversation: assistant turns as assistant', async () => {
    const turns = [
      { role: 'user' as const, content: 'I moved to Porto last spring.' },
      { role: 'assistant' as const, content: 'Porto is lovely in spring.' },
    ];
    const question = 'Where did I move last spring?';
    const { agent, prompts } = setup({}, () => turns[1]!.content);
    await agent.generate(turns[0]!.content, ada('t1'));
    await agent.generate(question, ada('t2'));

    const reference = newMemory();
    await reference.observe({ userId: 'ada', threadId: 't1' }, turns);
    const expected = (
      await reference.recall({ userId: 'ada', threadId: 't2' }, { query: question })
    ).render();
    expect(expected).toContain(`assistant: ${turns[1]!.content}`);
    const system = systemText(prompts[1]!);
    expect(system.slice(system.indexOf('<memory>'))).toBe(expected);
  });
});
