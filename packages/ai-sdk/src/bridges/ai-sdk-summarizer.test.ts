import { createMemory, memoryStore } from '@strata-memory/core';
import { manualClock } from '@strata-memory/core/test';
import { describe, expect, it } from 'vitest';
import { AI_MAJOR, scriptedModel } from '../../test/ai-under-test.ts';
import { aiSdkSummarizer } from './ai-sdk-summarizer.ts';

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

/** The MUST KEEP lines of the prompt the engine sent. */
function literalsOf(prompt: string): string[] {
  return [...(prompt.split('MUST KEEP')[1] ?? '').matchAll(/^- (.+)$/gm)].map((m) => m[1]!);
}

function userText(call: { prompt: Array<{ role: string; content: unknown }> }): string {
  const user = call.prompt.find((m) => m.role === 'user');
  const parts = (user?.content ?? []) as Array<{ type: string; text: string }>;
  return parts.map((p) => p.text).join('');
}

describe(`aiSdkSummarizer on ai ${AI_MAJOR}`, () => {
  it('writes the rolling summary with the AI SDK model, keeping every literal', async () => {
    const { model, calls } = scriptedModel((call) => ({
      text: `Earlier: ${literalsOf(userText(call)).join(', ')}.`,
    }));
    const memory = createMemory({
      store: memoryStore(),
      summarizer: aiSdkSummarizer({ model, maxRetries: 0, instructions: 'Be brief.' }),
      clock: manualClock(),
    });
    await memory.observe(scope, turns, { extract: false });
    const context = await memory.recall(scope, { query: 'lunch plans', budget: { tokens: 300 } });
    expect(calls.length).toBeGreaterThan(0);
    expect(calls[0]!.prompt[0]).toMatchObject({
      role: 'system',
      content: expect.stringMatching(/Be brief\.$/),
    });
    const stored = (await memory.store.threads.get({ scope }))?.summary ?? '';
    expect(stored).toMatch(/^Earlier: .*\$4,200/);
    expect(context.explain().find((e) => e.id.startsWith('fold:'))?.reason).toContain(
      'model:mock-provider:mock-model-id',
    );
  });

  it('is rejected by the fidelity guard when the model drops a literal; the engine falls back', async () => {
    const { model } = scriptedModel([{ text: 'Some small talk happened.' }]);
    const memory = createMemory({
      store: memoryStore(),
      summarizer: aiSdkSummarizer({ model, maxRetries: 0 }),
      clock: manualClock(),
    });
    await memory.observe(scope, turns, { extract: false });
    const context = await memory.recall(scope, { query: 'lunch plans', budget: { tokens: 300 } });
    const stored = (await memory.store.threads.get({ scope }))?.summary ?? '';
    expect(stored).toContain('$4,200');
    expect(stored).not.toContain('Some small talk happened.');
    expect(context.explain().find((e) => e.id.startsWith('fold:'))?.reason).toMatch(/rejected/);
  });
});
