import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { createMemory, memoryStore } from '@strata-memory/core';
import { manualClock } from '@strata-memory/core/test';
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../../test/scripted-chat-model.ts';
import { langChainSummarizer } from './langchain-summarizer.ts';

const scope = { userId: 'anna', threadId: 't1' };
const turns = [
  {
    role: 'user' as const,
    name: 'Anna',
    content: 'Supplier X sent the invoice: $4,200 for the steel beams.',
  },
  { role: 'assistant' as const, content: 'Noted the invoice.' },
  ...Array.from({ length: 14 }, (_, i) => ({
    role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant',
    content: `Small talk number ${i + 1} about the weather and lunch plans for the team offsite.`,
  })),
];

/** The MUST KEEP lines of the prompt the engine sent (the human message). */
function literalsOf(messages: BaseMessage[]): string[] {
  const prompt = messages.at(-1)?.text ?? '';
  return [...(prompt.split('MUST KEEP')[1] ?? '').matchAll(/^- (.+)$/gm)].map((m) => m[1]!);
}

async function run(model: ScriptedChatModel) {
  const memory = createMemory({
    store: memoryStore(),
    summarizer: langChainSummarizer({ model, instructions: 'Be brief.' }),
    clock: manualClock(),
  });
  await memory.observe(scope, turns, { extract: false });
  const context = await memory.recall(scope, { query: 'lunch plans', budget: { tokens: 300 } });
  const stored = (await memory.store.threads.get({ scope }))?.summary ?? '';
  return { stored, fold: context.explain().find((e) => e.id.startsWith('fold:'))?.reason ?? '' };
}

describe('langChainSummarizer', () => {
  it('writes the rolling summary with the chat model, keeping every literal', async () => {
    const model = new ScriptedChatModel(
      (messages) => new AIMessage(`Earlier: ${literalsOf(messages).join(', ')}.`),
    );
    const { stored, fold } = await run(model);
    expect(model.calls.length).toBeGreaterThan(0);
    expect(model.calls[0]![0]!.text).toMatch(/Be brief\.$/);
    expect(stored).toMatch(/^Earlier: .*\$4,200/);
    expect(fold).toContain('model:langchain:scripted');
  });

  it('is rejected by the fidelity guard when the model drops a literal; the engine falls back', async () => {
    const { stored, fold } = await run(new ScriptedChatModel([new AIMessage('Some small talk happened.')]));
    expect(stored).toContain('$4,200');
    expect(stored).not.toContain('Some small talk happened.');
    expect(fold).toMatch(/rejected/);
  });
});
