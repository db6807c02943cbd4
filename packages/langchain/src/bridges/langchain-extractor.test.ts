import { AIMessage } from '@langchain/core/messages';
import { createMemory, memoryStore } from '@strata-memory/core';
import { manualClock } from '@strata-memory/core/test';
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../../test/scripted-chat-model.ts';
import { langChainExtractor } from './langchain-extractor.ts';

const scope = { userId: 'u1', threadId: 't1' };

function memoryWith(reply: AIMessage) {
  const model = new ScriptedChatModel([reply]);
  const memory = createMemory({
    store: memoryStore(),
    extractor: langChainExtractor({ model }),
    clock: manualClock(),
  });
  return { memory, model };
}

describe('langChainExtractor', () => {
  it('extracts facts with one structured call per observed turn', async () => {
    const output = {
      facts: [
        {
          message: 1,
          entityType: 'supplier',
          entity: 'Supplier X',
          key: 'lead time',
          value: '45 days',
          confidence: 0.95,
          kind: 'statement',
          evidence: 'Supplier X needs 45 days',
        },
      ],
      entities: [{ message: 1, name: 'Supplier X', type: 'supplier' }],
      relations: [],
    };
    const { memory, model } = memoryWith(
      new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'memory_output', args: output }] }),
    );
    const result = await memory.observe(scope, [
      { role: 'user', content: 'Supplier X needs 45 days from order to delivery.' },
      { role: 'assistant', content: 'Noted.' },
    ]);
    expect(model.calls).toHaveLength(1);
    expect(result.extraction).toMatchObject({ ok: true, extractor: 'model:langchain:scripted' });
    expect(result.facts.written.map((f) => [f.entityId, f.key, f.value])).toEqual([
      ['supplier x', 'lead time', '45 days'],
    ]);
  });

  it('records malformed output and still stores the turn', async () => {
    const { memory } = memoryWith(new AIMessage('I think the lead time is 45 days.'));
    const result = await memory.observe(scope, { role: 'user', content: 'Supplier X needs 45 days.' });
    expect(result.extraction.ok).toBe(false);
    expect(result.episodes).toHaveLength(1);
    expect(result.facts.written).toEqual([]);
    const audit = await memory.audit.list({ userId: 'u1' }, { actions: ['extract.failed'] });
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0]!.details.raw).toBe('I think the lead time is 45 days.');
  });
});
