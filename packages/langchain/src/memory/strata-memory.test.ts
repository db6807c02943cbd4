import { ConversationChain } from '@langchain/classic/chains';
import { BufferMemory } from '@langchain/classic/memory';
import type { BaseMessage } from '@langchain/core/messages';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { describe, expect, it } from 'vitest';
import { newMemory, strataRejection } from '../../test/memory-fixtures.ts';
import { StrataMemory } from './strata-memory.ts';

const scope = { userId: 'ada', threadId: 't1' };

/** A chat model that answers from a list, and the prompts it was sent. */
function listModel(...responses: string[]) {
  const prompts: BaseMessage[][] = [];
  const model = new FakeListChatModel({
    responses,
    callbacks: [{ handleChatModelStart: (_llm, messages) => void prompts.push(...messages) }],
  });
  return { model, prompts };
}

describe('StrataMemory', () => {
  it('drops into ConversationChain in place of BufferMemory', async () => {
    const memory = newMemory();
    const { model, prompts } = listModel('Nice to meet you, Ada.', 'You are Ada.');
    // Before: new ConversationChain({ llm: model, memory: new BufferMemory() })
    const chain = new ConversationChain({ llm: model, memory: new StrataMemory({ memory, scope }) });

    expect(await chain.invoke({ input: 'My name is Ada.' })).toMatchObject({
      response: 'Nice to meet you, Ada.',
    });
    await chain.invoke({ input: 'What is my name?' });

    const prompt = prompts[1]!.map((m) => m.text).join('\n');
    expect(prompt).toContain('<memory>');
    expect(prompt).toContain('My name is Ada.');
    expect(prompt).toContain('Nice to meet you, Ada.');
    expect(prompt).toContain('Human: What is my name?');
    const stored = await memory.store.threads.listMessages({ scope });
    expect(stored.map((m) => [m.role, m.content])).toEqual([
      ['user', 'My name is Ada.'],
      ['assistant', 'Nice to meet you, Ada.'],
      ['user', 'What is my name?'],
      ['assistant', 'You are Ada.'],
    ]);
  });

  it('has BufferMemory’s variables and keys', async () => {
    const memory = newMemory();
    const buffer = new BufferMemory({ memoryKey: 'chat', inputKey: 'question', outputKey: 'answer' });
    const strata = new StrataMemory({
      memory,
      scope,
      memoryKey: 'chat',
      inputKey: 'question',
      outputKey: 'answer',
    });
    expect(strata.memoryKeys).toEqual(buffer.memoryKeys);
    await strata.saveContext(
      { question: 'Our budget is $4,200.', other: 'x' },
      { answer: 'Noted.', extra: 1 },
    );
    const variables = await strata.loadMemoryVariables({ question: 'What is our budget?', other: 'x' });
    expect(Object.keys(variables)).toEqual(['chat']);
    expect(variables.chat).toContain('$4,200');
  });

  it('recalls long-term memory from the user’s other conversations', async () => {
    const memory = newMemory();
    await new StrataMemory({ memory, scope }).saveContext(
      { input: "Supplier X's lead time is 45 days." },
      { output: 'Noted.' },
    );
    const later = new StrataMemory({ memory, scope: { userId: 'ada', threadId: 't2' } });
    const { history } = await later.loadMemoryVariables({ input: 'What is the lead time of Supplier X?' });
    expect(history).toContain('lead time: 45 days');
    const stranger = new StrataMemory({ memory, scope: { userId: 'bob', threadId: 't3' } });
    expect((await stranger.loadMemoryVariables({ input: 'lead time of Supplier X?' })).history).toBe('');
  });

  it('returns the memory block as one system message with returnMessages', async () => {
    const memory = newMemory();
    const strata = new StrataMemory({ memory, scope, returnMessages: true });
    expect(await strata.loadMemoryVariables({ input: 'hi' })).toEqual({ history: [] });
    await strata.saveContext(
      { input: new HumanMessage('My favourite city is Lisbon.') },
      { output: 'Lovely.' },
    );
    const { history } = await strata.loadMemoryVariables({ input: 'hi' });
    expect(history).toHaveLength(1);
    expect(history[0]).toBeInstanceOf(SystemMessage);
    expect(history[0].text).toContain('Lisbon');
  });

  it('clear() forgets the conversation’s messages, not what it taught long-term memory', async () => {
    const memory = newMemory();
    const strata = new StrataMemory({ memory, scope });
    await strata.saveContext({ input: 'My name is Ada.' }, { output: 'Hello Ada.' });
    await strata.clear();
    expect(await memory.store.threads.listMessages({ scope })).toEqual([]);
    const { history } = await strata.loadMemoryVariables({ input: 'name?' });
    expect(history).toContain('name: Ada');
    expect(history).not.toContain('Recent conversation:');
    // Both turns stay in long-term memory as episodes.
    const episodes = await memory.store.episodes.list({ scope, limit: 10 });
    expect(episodes.items.map((e) => e.text).sort()).toEqual(['Hello Ada.', 'My name is Ada.']);
  });

  it('rejects ambiguous or malformed inputs and stores nothing', async () => {
    const memory = newMemory();
    const strata = new StrataMemory({ memory, scope });
    expect((await strataRejection(strata.saveContext({ a: 'x', b: 'y' }, { output: 'z' }))).code).toBe(
      'invalid_input',
    );
    expect((await strataRejection(strata.saveContext({ input: 42 }, { output: 'z' }))).code).toBe(
      'invalid_input',
    );
    expect(await memory.store.threads.listMessages({ scope })).toEqual([]);
    expect(() => new StrataMemory({ memory, scope: { userId: 'ada' } })).toThrow(/threadId/);
    expect(() => new StrataMemory({ memory, scope, humanPrefix: 'H' } as never)).toThrow(/humanPrefix/);
  });
});
