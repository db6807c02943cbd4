import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import type { TurnMessage } from '../ports/ports.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock, scriptedModel } from '../test/index.ts';
import { modelSummarizer } from './model-summarizer.ts';

const messages: TurnMessage[] = [
  {
    id: 'm1',
    role: 'user',
    name: 'Anna',
    content: 'Supplier X sent the invoice: $4,200 for the steel beams.',
    at: 1,
  },
  { id: 'm2', role: 'assistant', content: 'Noted. Delivery is on 8 May 2023 at the Rotterdam yard.', at: 2 },
];
const mustKeep = ['$4,200', '8 May 2023', 'Rotterdam'];

async function rejection(promise: Promise<unknown>): Promise<StrataError> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StrataError');
}

/** The MUST KEEP lines of a prompt. */
function literalsIn(prompt: string): string[] {
  const block = prompt.split('MUST KEEP')[1] ?? '';
  return [...block.matchAll(/^- (.+)$/gm)].map((m) => m[1]!);
}

describe('modelSummarizer', () => {
  it('asks for every literal word for word and returns a faithful summary', async () => {
    const model = scriptedModel([
      '```\nSummary: Anna got an invoice of $4,200 from Supplier X; delivery 8 May 2023 at the Rotterdam yard.\n```',
    ]);
    const summarizer = modelSummarizer({ model, instructions: 'Write in English.' });
    expect(summarizer.id).toBe('model:scripted');
    const { summary } = await summarizer.summarize({
      previousSummary: 'Anna runs procurement.',
      messages,
      maxTokens: 100,
      mustKeep,
    });
    expect(summary).toBe(
      'Anna got an invoice of $4,200 from Supplier X; delivery 8 May 2023 at the Rotterdam yard.',
    );
    expect(model.calls).toHaveLength(1);
    const { system, prompt } = model.calls[0]!;
    expect(system).toMatch(/exactly as written, character for character/);
    expect(system).toMatch(/Write in English\.$/);
    expect(prompt).toContain('PREVIOUS SUMMARY:\nAnna runs procurement.');
    expect(prompt).toContain('[1] user (Anna): Supplier X sent the invoice: $4,200 for the steel beams.');
    expect(literalsIn(prompt)).toEqual(mustKeep);
    expect(prompt).toMatch(/at most about 75 words/);
  });

  it('rejects a summary that drops or alters a literal (summary_rejected, with the issues)', async () => {
    const model = scriptedModel(['Supplier X invoiced $4,250; delivery in May at Rotterdam.']);
    const error = await rejection(
      modelSummarizer({ model }).summarize({ messages, maxTokens: 100, mustKeep }),
    );
    expect(error.code).toBe('summary_rejected');
    expect(error.details.issues).toEqual([
      { literal: '$4,200', problem: 'missing' },
      { literal: '8 May 2023', problem: 'missing' },
    ]);
  });

  it('rejects a summary that hedges a literal the messages stated exactly', async () => {
    const model = scriptedModel(['Invoice of approximately $4,200; delivery 8 May 2023, Rotterdam.']);
    const error = await rejection(
      modelSummarizer({ model }).summarize({ messages, maxTokens: 100, mustKeep }),
    );
    expect(error.code).toBe('summary_rejected');
    expect(error.message).toContain('hedges "$4,200" with "approximately"');
  });

  it('reports a failing model as model_failure and an empty reply as model_output_invalid', async () => {
    const failing = scriptedModel([new Error('rate limited')]);
    const failure = await rejection(
      modelSummarizer({ model: failing }).summarize({ messages, maxTokens: 50, mustKeep }),
    );
    expect(failure.code).toBe('model_failure');
    expect(failure.message).toContain('rate limited');
    const empty = scriptedModel(['  ']);
    expect(
      (
        await rejection(
          modelSummarizer({ model: empty }).summarize({ messages, maxTokens: 50, mustKeep: [] }),
        )
      ).code,
    ).toBe('model_output_invalid');
  });

  it('validates its options', () => {
    expect(() => modelSummarizer({ model: {} as never })).toThrow(StrataError);
    expect(() => modelSummarizer(undefined as never)).toThrow(/CompletionModel/);
  });

  it('serves the engine’s rolling summary: accepted when faithful, replaced by the fallback when not', async () => {
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
    for (const faithful of [true, false]) {
      const model = scriptedModel(({ prompt }) =>
        faithful ? `Earlier: ${literalsIn(prompt).join(', ')}.` : 'Earlier: some small talk.',
      );
      const memory = createMemory({
        store: memoryStore(),
        summarizer: modelSummarizer({ model }),
        clock: manualClock(),
      });
      await memory.observe(scope, turns, { extract: false });
      const context = await memory.recall(scope, { query: 'lunch plans', budget: { tokens: 300 } });
      expect(model.calls.length).toBeGreaterThan(0);
      const stored = (await memory.store.threads.get({ scope }))?.summary ?? '';
      expect(stored).toContain('$4,200');
      if (faithful) expect(stored).toMatch(/^Earlier: /);
      else expect(stored).not.toContain('some small talk');
      const fold = context.explain().find((e) => e.id.startsWith('fold:'));
      expect(fold?.reason).toMatch(faithful ? /with model:scripted/ : /rejected/);
    }
  });
});
