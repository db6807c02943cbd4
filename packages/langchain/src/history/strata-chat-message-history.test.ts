import type { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnableWithMessageHistory } from '@langchain/core/runnables';
import { fakeModel } from '@langchain/core/testing';
import { describe, expect, it } from 'vitest';
import { newMemory, strataRejection } from '../../test/memory-fixtures.ts';
import { StrataChatMessageHistory } from './strata-chat-message-history.ts';

const scope = { userId: 'u1', threadId: 't1' };

describe('StrataChatMessageHistory', () => {
  it('keeps messages in order with their types, ids, names and tool calls', async () => {
    const memory = newMemory();
    const history = new StrataChatMessageHistory({ memory, scope });
    await history.addMessages([
      new SystemMessage({ content: 'Be brief.', id: 'm0' }),
      new HumanMessage({ content: 'Look up Supplier X.', id: 'm1', name: 'ada' }),
      new AIMessage({
        content: '',
        id: 'm2',
        tool_calls: [{ id: 'call-1', name: 'lookup', args: { supplier: 'X' }, type: 'tool_call' }],
      }),
      new ToolMessage({ content: '45 days', tool_call_id: 'call-1', name: 'lookup', id: 'm3' }),
    ]);
    await history.addAIMessage('Supplier X needs 45 days.');

    const messages = await history.getMessages();
    expect(messages.map((m) => m.getType())).toEqual(['system', 'human', 'ai', 'tool', 'ai']);
    expect(messages.slice(0, 4).map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(messages[1]!.name).toBe('ada');
    expect((messages[2] as AIMessage).tool_calls).toEqual([
      { id: 'call-1', name: 'lookup', args: { supplier: 'X' }, type: 'tool_call' },
    ]);
    expect((messages[3] as ToolMessage).tool_call_id).toBe('call-1');
    expect(messages[4]!.text).toBe('Supplier X needs 45 days.');
  });

  it('adding a message it already holds (same id) does not duplicate it', async () => {
    const history = new StrataChatMessageHistory({ memory: newMemory(), scope });
    const message = new HumanMessage({ content: 'Hello', id: 'same' });
    await history.addMessage(message);
    await history.addMessage(message);
    expect(await history.getMessages()).toHaveLength(1);
  });

  it('feeds long-term memory: a fact said in one session is recalled in another of the same user', async () => {
    const memory = newMemory();
    const history = new StrataChatMessageHistory({ memory, scope });
    await history.addUserMessage("Supplier X's lead time is 45 days.");
    const context = await memory.recall({ userId: 'u1', threadId: 't2' }, { query: 'lead time' });
    expect(context.sections.facts.map((f) => f.fact.value)).toEqual(['45 days']);
  });

  it('clear() empties the thread but keeps what it taught long-term memory', async () => {
    const memory = newMemory();
    const history = new StrataChatMessageHistory({ memory, scope });
    await history.addUserMessage("Supplier X's lead time is 45 days.");
    await history.clear();
    expect(await history.getMessages()).toEqual([]);
    expect(await memory.facts.list({ userId: 'u1' })).toHaveLength(1);
    await history.addUserMessage('Hello again.');
    expect((await history.getMessages()).map((m) => m.text)).toEqual(['Hello again.']);
  });

  it('reads threads longer than one page', async () => {
    const memory = newMemory();
    const history = new StrataChatMessageHistory({ memory, scope });
    const messages = Array.from(
      { length: 1005 },
      (_, i) => new HumanMessage({ content: `m${i}`, id: `id-${i}` }),
    );
    await history.addMessages(messages);
    const read = await history.getMessages();
    expect(read).toHaveLength(1005);
    expect(read[1004]!.text).toBe('m1004');
  });

  it('needs a thread scope and valid options', async () => {
    const memory = newMemory();
    expect(() => new StrataChatMessageHistory({ memory, scope: { userId: 'u1' } })).toThrow(/threadId/);
    expect(() => new StrataChatMessageHistory({ memory, scope: {} })).toThrow(/scope/);
    expect(() => new StrataChatMessageHistory({ memory: {} as never, scope })).toThrow(/Memory/);
    const history = new StrataChatMessageHistory({ memory, scope });
    const error = await strataRejection(
      history.addMessage(new HumanMessage({ content: 'x'.repeat(200_001) })),
    );
    expect(error.code).toBe('payload_too_large');
    expect(await history.getMessages()).toEqual([]);
  });

  it('is a one-line swap for InMemoryChatMessageHistory in RunnableWithMessageHistory', async () => {
    const memory = newMemory();
    const model = fakeModel()
      .respond((messages) => new AIMessage(`seen ${messages.length} messages`))
      .respond((messages) => new AIMessage(`seen ${messages.length} messages`));
    const prompt = ChatPromptTemplate.fromMessages([
      ['system', 'You are terse.'],
      new MessagesPlaceholder('history'),
      ['human', '{input}'],
    ]);
    const histories = new Map<string, InMemoryChatMessageHistory | StrataChatMessageHistory>();
    const chain = new RunnableWithMessageHistory({
      runnable: prompt.pipe(model),
      // Before: new InMemoryChatMessageHistory()
      getMessageHistory: (sessionId: string) => {
        const history =
          histories.get(sessionId) ??
          new StrataChatMessageHistory({ memory, scope: { userId: 'u1', threadId: sessionId } });
        histories.set(sessionId, history);
        return history;
      },
      inputMessagesKey: 'input',
      historyMessagesKey: 'history',
    });
    const config = { configurable: { sessionId: 's1' } };
    await chain.invoke({ input: 'My name is Ada.' }, config);
    const second = await chain.invoke({ input: 'What is my name?' }, config);
    // system + (human, ai) of the first turn + the new human message.
    expect(second.text).toBe('seen 4 messages');
    expect(model.calls[1]!.messages.map((m) => m.text)).toEqual([
      'You are terse.',
      'My name is Ada.',
      'seen 2 messages',
      'What is my name?',
    ]);
    const stored = await memory.store.threads.listMessages({ scope: { userId: 'u1', threadId: 's1' } });
    expect(stored.map((m) => [m.role, m.content])).toEqual([
      ['user', 'My name is Ada.'],
      ['assistant', 'seen 2 messages'],
      ['user', 'What is my name?'],
      ['assistant', 'seen 4 messages'],
    ]);
  });
});
