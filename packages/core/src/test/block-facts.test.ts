import { describe, expect, it } from 'vitest';
import { createMemory } from '../memory/create-memory.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { blockFacts, manualClock } from './index.ts';

describe('blockFacts', () => {
  it('reads back the facts a recall renders, with their notes', async () => {
    const memory = createMemory({ store: memoryStore(), clock: manualClock('2026-01-02T09:00:00Z') });
    const ada = { userId: 'ada' };
    const self = { id: 'ada', role: 'member' };
    await memory.facts.remember(ada, {
      entityType: 'user',
      entity: 'ada',
      key: 'name',
      value: 'Ada',
      principal: self,
    });
    await memory.facts.remember(ada, {
      entityType: 'user',
      entity: 'ada',
      key: 'desk',
      value: '4B',
      confidence: 0.8,
      principal: { id: 'tom', role: 'member' },
    });
    const thread = { ...ada, threadId: 'monday' };
    await memory.observe(thread, { role: 'user', content: 'Where is my desk?' });
    const context = await memory.recall(thread, { query: 'What is my name and where do I sit?' });
    expect(context.render()).toContain('Recent conversation:');
    expect(blockFacts(`system prompt\n${context.render()}`)).toEqual([
      { entity: 'user ada', key: 'name', value: 'Ada' },
      { entity: 'user ada', key: 'desk', value: '4B', notes: 'tom, 2026-01-02; confidence 0.80' },
    ]);
  });

  it('reads no fact outside the Facts section', () => {
    expect(
      blockFacts('Recent conversation:\n- user · name: Ada\nFacts:\n- supplier x · lead time: 30 days'),
    ).toEqual([{ entity: 'supplier x', key: 'lead time', value: '30 days' }]);
  });
});
