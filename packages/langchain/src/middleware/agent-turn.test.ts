import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { newMemory } from '../../test/memory-fixtures.ts';
import { latestHumanText, turnToObserve } from './agent-turn.ts';

const conversation = [
  new SystemMessage({ content: 'Be brief.', id: 's' }),
  new HumanMessage({ content: 'Earlier question', id: 'h0' }),
  new AIMessage({ content: 'Earlier answer', id: 'a0' }),
  new HumanMessage({ content: [{ type: 'text', text: 'How long does Supplier X take?' }], id: 'h1' }),
  new AIMessage({
    content: '',
    id: 'a1',
    tool_calls: [{ id: 'c1', name: 'lookup', args: { supplier: 'X' } }],
  }),
  new ToolMessage({ content: '45 days', tool_call_id: 'c1', id: 't1' }),
  new AIMessage({ content: '', id: 'a-empty' }),
  new AIMessage({ content: 'Supplier X takes 45 days.', id: 'a2' }),
];

describe('agent turns', () => {
  it('the query is the latest human message’s text', () => {
    expect(latestHumanText(conversation)).toBe('How long does Supplier X take?');
    expect(latestHumanText([new AIMessage('hi')])).toBeUndefined();
  });

  it('a turn is the latest human message and the AI messages after it, without tool results or empty replies', () => {
    const turn = turnToObserve(conversation);
    expect(turn.map((m) => [m.role, m.content, m.toolCalls?.map((c) => c.name) ?? []])).toEqual([
      ['user', 'How long does Supplier X take?', []],
      ['assistant', '', ['lookup']],
      ['assistant', 'Supplier X takes 45 days.', []],
    ]);
    expect(turnToObserve([new AIMessage('no human yet')])).toEqual([]);
  });

  it('an AI reply keeps no agent name, so it renders as an assistant turn like in the other adapters', async () => {
    const memory = newMemory();
    const scope = { userId: 'ada', threadId: 't1' };
    const turn = turnToObserve([
      new HumanMessage({ content: 'Supplier X takes 45 days', id: 'h', name: 'Ada' }),
      new AIMessage({ content: 'Noted: Supplier X takes 45 days.', id: 'a', name: 'model' }),
    ]);
    expect(turn.map((m) => [m.role, m.name])).toEqual([
      ['user', 'Ada'],
      ['assistant', undefined],
    ]);
    await memory.observe(scope, turn, { extract: false });
    const rendered = (await memory.recall(scope, { query: 'Supplier X' })).render();
    expect(rendered).not.toContain('model:');
  });

  it('observing the same turn twice stores it once; a reused id with new content is new', async () => {
    const memory = newMemory();
    const scope = { userId: 'ada', threadId: 't1' };
    await memory.observe(scope, turnToObserve(conversation), { extract: false });
    await memory.observe(scope, turnToObserve(conversation), { extract: false });
    const edited = [
      ...conversation.slice(0, -1),
      new AIMessage({ content: 'Supplier X takes 30 days.', id: 'a2' }),
    ];
    await memory.observe(scope, turnToObserve(edited), { extract: false });
    const stored = await memory.store.threads.listMessages({ scope });
    expect(stored.map((m) => m.content)).toEqual([
      'How long does Supplier X take?',
      '',
      'Supplier X takes 45 days.',
      'Supplier X takes 30 days.',
    ]);
    expect(stored[0]!.id.startsWith('h1#')).toBe(true);
  });
});
