import { describe, expect, it } from 'vitest';
import { defaultPolicy } from '../engine/policy.ts';
import { PORT_SPECIFICATION_VERSION, type Summarizer } from '../ports/ports.ts';
import { createRecall } from '../recall/recall.ts';
import type { Scope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';
import { defaultTokenizer } from '../tokenizer/tokenizer.ts';
import { extractiveSummarizer } from './extractive-summarizer.ts';

const tokenizer = defaultTokenizer();
const thread: Scope = { orgId: 'acme', userId: 'anna', threadId: 't1' };

/** A summarizer that answers with a fixed function of its input, recording each call. */
function scriptedSummarizer(reply: (args: Parameters<Summarizer['summarize']>[0]) => string | Error) {
  const calls: Array<Parameters<Summarizer['summarize']>[0]> = [];
  const summarizer: Summarizer = {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: 'scripted-summarizer',
    async summarize(args) {
      calls.push(args);
      const out = reply(args);
      if (out instanceof Error) throw out;
      return { summary: out };
    },
  };
  return { summarizer, calls };
}

async function setup(summarizer: Summarizer, store: Store = memoryStore()) {
  const clock = manualClock('2026-03-01T12:00:00Z');
  const recall = createRecall({ store, tokenizer, summarizer, clock, policy: defaultPolicy });
  const turns = [
    { role: 'system' as const, content: 'You are the procurement assistant of Acme.' },
    {
      role: 'user' as const,
      name: 'Anna',
      content: 'Supplier X sent the invoice: $4,200 for the steel beams.',
    },
    { role: 'assistant' as const, content: 'Thanks Anna, I have noted the invoice from Supplier X.' },
    { role: 'user' as const, name: 'Anna', content: 'Delivery is on 8 May 2023 at the Rotterdam yard.' },
    { role: 'assistant' as const, content: 'Understood, delivery to the Rotterdam yard.' },
    ...Array.from({ length: 12 }, (_, i) => ({
      role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant',
      content: `Small talk number ${i + 1} about the weather and lunch plans for the team offsite.`,
    })),
    { role: 'user' as const, name: 'Anna', content: 'What was the invoice amount again?' },
  ];
  const messages = await store.threads.appendMessages({
    scope: thread,
    messages: turns.map((t, i) => ({ ...t, createdAt: clock.now() - (turns.length - i) * 60_000 })),
  });
  return { store, clock, recall, messages };
}

describe('working buffer in recall', () => {
  it('keeps the system prompt and the latest user turn, evicts the oldest, folds them into a persisted summary', async () => {
    const { store, recall, messages } = await setup(extractiveSummarizer({ tokenizer }));
    const ctx = await recall(thread, { query: 'invoice amount', budget: { tokens: 400 } });
    const kept = ctx.sections.working.map((m) => m.seq);
    expect(kept[0]).toBe(1); // system prompt
    expect(kept[kept.length - 1]).toBe(messages.length); // latest user turn
    expect(kept).not.toContain(2);
    expect(ctx.sections.summary).toContain('$4,200');
    expect(ctx.render()).toContain('Earlier in this conversation (summary):');
    expect(ctx.tokens).toBeLessThanOrEqual(400);

    const stored = await store.threads.get({ scope: thread });
    expect(stored?.summary).toBe(ctx.sections.summary);
    const evicted = ctx
      .explain()
      .filter((e) => e.layer === 'working' && !e.included)
      .map((e) => e.id);
    expect(evicted.length).toBeGreaterThan(0);
    const maxEvictedSeq = Math.max(...messages.filter((m) => evicted.includes(m.id)).map((m) => m.seq));
    expect(stored?.summarizedThroughSeq).toBe(maxEvictedSeq);
    // Every literal of the evicted turns is in the summary verbatim.
    for (const literal of ['$4,200', 'Supplier X', '8 May 2023', 'Rotterdam']) {
      expect(stored?.summary).toContain(literal);
    }
  });

  it('folds lazily: a second recall does not summarise the same turns again', async () => {
    const { summarizer, calls } = scriptedSummarizer((args) =>
      `${args.previousSummary ?? ''} ${args.mustKeep.join(' ')}`.trim(),
    );
    const { recall } = await setup(summarizer);
    await recall(thread, { query: 'invoice', budget: { tokens: 400 } });
    const first = calls.length;
    expect(first).toBeGreaterThan(0);
    await recall(thread, { query: 'invoice', budget: { tokens: 400 } });
    expect(calls.length).toBe(first);
  });

  it('rejects a summary that hedges "$4,200" as "approximately $4,200", keeping an extractive fallback', async () => {
    const { summarizer } = scriptedSummarizer(
      () => 'Anna said Supplier X invoiced approximately $4,200, delivery 8 May 2023 at the Rotterdam yard.',
    );
    const { store, recall } = await setup(summarizer);
    const ctx = await recall(thread, { query: 'invoice amount', budget: { tokens: 400 } });
    const summary = (await store.threads.get({ scope: thread }))?.summary ?? '';
    expect(summary).toContain('$4,200');
    expect(summary).not.toMatch(/approximately/);
    const note = ctx.explain().find((e) => e.layer === 'summary' && e.id.startsWith('fold:'));
    expect(note?.included).toBe(false);
    expect(note?.reason).toMatch(/rejected \(hedged "\$4,200" as "approximately"/);
    expect(note?.reason).toMatch(/extractive fallback/);
  });

  it('rejects a summary that alters "$4,200" to "$4,250"', async () => {
    const { summarizer } = scriptedSummarizer(
      () => 'Supplier X invoiced $4,250; delivery 8 May 2023, Rotterdam.',
    );
    const { store, recall } = await setup(summarizer);
    const ctx = await recall(thread, { query: 'invoice amount', budget: { tokens: 400 } });
    const summary = (await store.threads.get({ scope: thread }))?.summary ?? '';
    expect(summary).toContain('$4,200');
    expect(summary).not.toContain('$4,250');
    expect(ctx.explain().find((e) => e.id.startsWith('fold:'))?.reason).toMatch(/dropped "\$4,200"/);
  });

  it('keeps the previous summary when a later summary is rejected', async () => {
    const { summarizer } = scriptedSummarizer(() => 'A pleasant chat.');
    const store = memoryStore();
    await store.threads.upsert({ scope: thread });
    await store.threads.update({
      scope: thread,
      patch: { summary: 'Anna: budget cap is $12,000 per quarter.', summarizedThroughSeq: 0 },
    });
    const { recall } = await setup(summarizer, store);
    await recall(thread, { query: 'invoice', budget: { tokens: 400 } });
    const summary = (await store.threads.get({ scope: thread }))?.summary ?? '';
    expect(summary.startsWith('Anna: budget cap is $12,000 per quarter.')).toBe(true);
    expect(summary).toContain('$4,200');
    expect(summary).not.toContain('A pleasant chat.');
  });

  it('falls back when the summarizer throws, and says so', async () => {
    const { summarizer } = scriptedSummarizer(() => new Error('model timed out'));
    const { store, recall } = await setup(summarizer);
    const ctx = await recall(thread, { query: 'invoice', budget: { tokens: 400 } });
    expect((await store.threads.get({ scope: thread }))?.summary).toContain('$4,200');
    expect(ctx.explain().find((e) => e.id.startsWith('fold:'))?.reason).toMatch(/it failed: model timed out/);
  });

  it('does not require literals already stored as facts from the evicted turns', async () => {
    const { summarizer, calls } = scriptedSummarizer((args) => args.mustKeep.join('; '));
    const store = memoryStore();
    const { recall, messages } = await setup(summarizer, store);
    await store.facts.insert({
      fact: {
        scope: { orgId: 'acme', userId: 'anna' },
        entityType: 'supplier',
        entityId: 'supplier x',
        key: 'invoice amount',
        value: '$4,200',
        provenance: { source: 'extraction', messageId: messages[1]!.id, at: 0 },
      },
    });
    const ctx = await recall(thread, { query: 'invoice', budget: { tokens: 400 } });
    const mustKeep = calls[0]!.mustKeep;
    expect(mustKeep).not.toContain('$4,200');
    expect(mustKeep).not.toContain('Supplier X');
    expect(mustKeep).toContain('8 May 2023');
    expect(ctx.explain().find((e) => e.id.startsWith('fold:'))?.included).toBe(true);
  });

  it('a fact from another message does not excuse a literal', async () => {
    const { summarizer, calls } = scriptedSummarizer((args) => args.mustKeep.join('; '));
    const store = memoryStore();
    const { recall } = await setup(summarizer, store);
    await store.facts.insert({
      fact: {
        scope: { orgId: 'acme', userId: 'anna' },
        entityType: 'supplier',
        entityId: 'supplier x',
        key: 'invoice amount',
        value: '$4,200',
        provenance: { source: 'extraction', messageId: 'some-other-message', at: 0 },
      },
    });
    await recall(thread, { query: 'invoice', budget: { tokens: 400 } });
    expect(calls[0]!.mustKeep).toContain('$4,200');
  });

  it('keeps the system prompt pinned in a thread longer than one read, folding the backlog once', async () => {
    const { summarizer, calls } = scriptedSummarizer((args) => args.mustKeep.join(' '));
    const store = memoryStore();
    const clock = manualClock('2026-03-01T12:00:00Z');
    const recall = createRecall({ store, tokenizer, summarizer, clock, policy: defaultPolicy });
    const long: Scope = { orgId: 'acme', userId: 'anna', threadId: 'long' };
    await store.threads.appendMessages({ scope: long, messages: [{ role: 'system', content: 'Be terse.' }] });
    // More than the 1,000 newest messages a recall reads at once.
    for (let batch = 0; batch < 2; batch++) {
      await store.threads.appendMessages({
        scope: long,
        messages: Array.from({ length: 520 }, (_, i) => ({
          role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant',
          content: `turn ${batch * 520 + i}`,
        })),
      });
    }
    const ctx = await recall(long, { budget: { tokens: 300 } });
    expect(ctx.sections.working[0]?.content).toBe('Be terse.');
    expect(ctx.sections.working.at(-1)?.content).toBe('turn 1039');
    expect(ctx.tokens).toBeLessThanOrEqual(300);
    const stored = await store.threads.get({ scope: long });
    const firstShown = ctx.sections.working[1]!.seq;
    expect(stored?.summarizedThroughSeq).toBe(firstShown - 1);
    const folded = calls.flatMap((c) => c.messages.map((m) => m.content));
    expect(folded).not.toContain('Be terse.');
    expect(folded[0]).toBe('turn 0');
    expect(new Set(folded).size).toBe(folded.length);
    const before = calls.length;
    const again = await recall(long, { budget: { tokens: 300 } });
    expect(calls.length).toBe(before);
    expect(again.sections.working[0]?.content).toBe('Be terse.');
  });

  it('leaves the summary out when the summary layer is not requested', async () => {
    const { recall } = await setup(extractiveSummarizer({ tokenizer }));
    const ctx = await recall(thread, { query: 'invoice', budget: { tokens: 400 }, layers: ['working'] });
    expect(ctx.sections.summary).toBeUndefined();
    expect(ctx.render()).not.toContain('summary');
    expect(ctx.sections.working.length).toBeGreaterThan(0);
  });
});
