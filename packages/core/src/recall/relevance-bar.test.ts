import { describe, expect, it } from 'vitest';
import { createMemory } from '../memory/create-memory.ts';
import type { Scope } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock, testEmbedder } from '../test/index.ts';
import { defaultTokenizer } from '../tokenizer/tokenizer.ts';
import { formatExplanation } from './explanation.ts';

const maria: Scope = { orgId: 'acme', userId: 'maria' };
const thread = (threadId: string): Scope => ({ ...maria, threadId });

function setup() {
  const clock = manualClock('2026-03-02T09:00:00Z');
  const memory = createMemory({
    store: memoryStore(),
    clock,
    embedder: testEmbedder(),
    tokenizer: defaultTokenizer(),
  });
  /** Each statement in its own conversation, a day apart: no statement is another's context. */
  const say = async (texts: string[]) => {
    for (const [i, content] of texts.entries()) {
      await memory.observe(thread(`t${i}`), { role: 'user', content });
      clock.advanceDays(1);
    }
  };
  return { memory, say };
}

const NOTES = [
  'Gate B is the only gate that takes trucks over 7.5 tonnes.',
  'Crane hire is booked separately, not through the main contractor.',
  'The structural engineer is Lena Park from Park & Hale.',
  'Offloading is between 7am and 3pm, weekdays only.',
  'Invoices go to ap@acme.example with the PO number in the subject.',
  'Rebar comes in 120 bundles of 12 mm.',
];

describe('the relevance bar', () => {
  it('lets in what matches the query, not what the budget could still hold', async () => {
    const { memory, say } = setup();
    await say(NOTES);
    const query = 'Which gate takes the heavy trucks on weekdays?';
    const ctx = await memory.recall(thread('ask'), { query, budget: { tokens: 2000 } });
    expect(ctx.sections.episodes.map((e) => e.episode.text)).toEqual([NOTES[0]]);
    // Crane hire shares nothing with the query; the offloading hours share one word ("weekdays").
    const crane = ctx.explain().find((e) => e.text?.includes('Crane hire'));
    expect(crane?.included).toBe(false);
    expect(crane?.rule).toMatch(/^unrelated to the query: no keyword of it/);
    const hours = ctx.explain().find((e) => e.text?.includes('Offloading'));
    expect(hours?.included).toBe(false);
    expect(hours?.rule).toMatch(
      /^below the relevance bar: [\d.]+ < [\d.]+ \(0\.5 of the best episode, [\d.]+\)$/,
    );

    // Switched off, the same budget fills with the other notes.
    const all = await memory.recall(thread('ask'), { query, budget: { tokens: 2000 }, relevanceBar: false });
    expect(all.sections.episodes.length).toBeGreaterThan(1);
    expect(all.tokens).toBeGreaterThan(ctx.tokens);
  });

  it('does not repeat an episode beside the fact it stated', async () => {
    const { memory, say } = setup();
    await say(["Supplier X's lead time is 45 days."]);
    const query = "What is Supplier X's lead time?";
    const ctx = await memory.recall(thread('ask'), { query });
    expect(ctx.sections.facts.map((f) => f.fact.value)).toEqual(['45 days']);
    expect(ctx.sections.episodes).toEqual([]);
    const episode = ctx.explain().find((e) => e.layer === 'episodes' && e.text?.includes('45 days'));
    expect(episode?.rule).toBe('shown as "supplier x · lead time: 45 days (maria, 2026-03-02)"');

    const all = await memory.recall(thread('ask'), { query, relevanceBar: false });
    expect(all.sections.episodes.map((e) => e.episode.text)).toEqual(["Supplier X's lead time is 45 days."]);
  });

  it('shows a fact once when a text it is indexed by matches: the fact enters, the text is not repeated', async () => {
    const { memory, say } = setup();
    await say(NOTES);
    await memory.facts.remember(maria, {
      entity: 'site rules',
      key: 'parking',
      value: { where: 'Lot C behind the canteen' },
      index: { texts: ['where: Lot C behind the canteen'], speaker: 'saved memory' },
    });
    // Only the index text tells that Lot C is for visitors.
    await memory.facts.remember(maria, {
      entity: 'site rules',
      key: 'p2',
      value: 'C',
      index: { texts: ['Visitors park their vans in lot C'] },
    });
    const ctx = await memory.recall(thread('ask'), { query: 'Where is Lot C, behind the canteen?' });
    expect(ctx.sections.facts.map((f) => f.fact.key)).toContain('parking');
    expect(ctx.sections.episodes.map((e) => e.episode.text)).not.toContain('where: Lot C behind the canteen');
    const index = ctx.explain().find((e) => e.layer === 'episodes' && e.text?.includes('Lot C behind'));
    expect(index?.rule).toBe('shown as "site rules · parking: where: Lot C behind the canteen (2026-03-08)"');

    const vans = await memory.recall(thread('ask'), { query: 'Where do visitors park vans?' });
    const p2 = vans.explain().find((e) => e.layer === 'facts' && e.text?.includes('p2'));
    expect(p2?.included).toBe(true);
    expect(p2?.rule).toBe('cleared the relevance bar: a text it is indexed by matches the query');

    const all = await memory.recall(thread('ask'), {
      query: 'Where is Lot C, behind the canteen?',
      relevanceBar: false,
    });
    expect(all.sections.episodes.map((e) => e.episode.text)).toContain('where: Lot C behind the canteen');
  });

  it('keeps a fact whose words miss the query when the episode it came from matches', async () => {
    const { memory, say } = setup();
    await say(['Construction suppliers are paid net 60.', ...NOTES]);
    const ctx = await memory.recall(thread('ask'), {
      query: 'How long until construction suppliers get their money?',
    });
    const fact = ctx.explain().find((e) => e.layer === 'facts' && e.text?.includes('net 60'));
    expect(fact?.included).toBe(true);
    expect(fact?.rule).toMatch(/query relevance|the episode it came from matches the query/);
  });

  it('judges a turn on its own when the hit it sits next to is shown as a fact', async () => {
    const { memory } = setup();
    // One conversation: each turn is the other's context.
    await memory.observe(thread('t0'), { role: 'user', content: "Supplier X's lead time is 45 days." });
    await memory.observe(thread('t0'), { role: 'user', content: 'Our approval limit is 50,000 USD.' });
    const query = "What is Supplier X's lead time?";
    const ctx = await memory.recall(thread('ask'), { query });
    expect(ctx.sections.facts.map((f) => f.fact.value)).toEqual(['45 days']);
    expect(ctx.sections.episodes).toEqual([]);
    const limit = ctx.explain().find((e) => e.layer === 'episodes' && e.text?.includes('approval limit'));
    expect(limit?.included).toBe(false);
    expect(limit?.rule).toMatch(
      /^context for ep_\w+, which the block shows as "supplier x · lead time: 45 days \(maria, 2026-03-02\)"; on its own below the relevance bar$/,
    );
    // Nor does the fact it stated come in on the strength of that turn.
    const fact = ctx.explain().find((e) => e.layer === 'facts' && e.text?.includes('approval limit'));
    expect(fact?.included).toBe(false);

    // Asked about the approval limit, the same turn matches on its own.
    const own = await memory.recall(thread('ask'), { query: 'What is our approval limit?' });
    expect(own.sections.facts.map((f) => f.fact.key)).toContain('approval limit');
  });

  it("keeps the user's own profile, whatever the query", async () => {
    const { memory, say } = setup();
    await say(NOTES);
    await memory.facts.remember(maria, {
      entity: 'maria',
      entityType: 'user',
      key: 'diet',
      value: 'vegetarian',
    });
    await memory.facts.remember(maria, { entity: 'tom', entityType: 'user', key: 'diet', value: 'vegan' });
    const ctx = await memory.recall(thread('ask'), { query: 'Which gate takes the heavy trucks?' });
    expect(ctx.sections.facts.map((f) => [f.fact.entityId, f.fact.value])).toEqual([['maria', 'vegetarian']]);
    expect(ctx.explain().find((e) => e.text?.includes('vegetarian'))?.rule).toBe(
      "cleared the relevance bar: the user's own profile",
    );
  });

  it('lets no episode in for a query unrelated to everything stored', async () => {
    const { memory, say } = setup();
    await say(NOTES);
    const query = 'How do I reset the wifi router?';
    const ctx = await memory.recall(thread('ask'), { query, budget: { tokens: 2000 } });
    expect(ctx.sections.episodes).toEqual([]);
    const out = ctx.explain().filter((e) => e.layer === 'episodes');
    expect(out.length).toBeGreaterThan(0);
    for (const e of out) {
      expect(e.included).toBe(false);
      expect(e.rule).toMatch(/^unrelated to the query: no keyword of it/);
    }
    // The ranking still holds them (a vector match is a match there), below the bar.
    const ranked = await memory.recall(thread('ask'), {
      query,
      budget: { tokens: 2000 },
      relevanceBar: false,
    });
    expect(ranked.sections.episodes.length).toBeGreaterThan(0);

    // One keyword in common is a match again.
    const related = await memory.recall(thread('ask'), { query: 'How do I reset the crane?' });
    expect(related.sections.episodes.map((e) => e.episode.text)).toEqual([NOTES[1]]);
  });

  it('applies no bar without a query: facts compete for the budget as before', async () => {
    const { memory, say } = setup();
    await say(['Construction suppliers are paid net 60.', "Supplier X's lead time is 45 days."]);
    const ctx = await memory.recall(thread('ask'));
    expect(ctx.sections.facts).toHaveLength(2);
    for (const e of ctx.explain().filter((e) => e.layer === 'facts'))
      expect(e.rule).toBe('no query: no relevance bar');
  });
});

describe('explain()', () => {
  it('prints a table with a row per candidate: in or out, layer, tokens, scores, text and rule', async () => {
    const { memory, say } = setup();
    await say(NOTES);
    const ctx = await memory.recall(thread('ask'), { query: 'Which gate takes the heavy trucks?' });
    const entries = ctx.explain();
    const table = String(entries);
    expect(table).toBe(formatExplanation(entries));
    const included = entries.filter((e) => e.included).length;
    expect(table.split('\n')[0]).toBe(`${included} in, ${entries.length - included} out`);
    for (const e of entries.filter((e) => e.text)) {
      expect(table).toContain(e.text!.slice(0, 60));
      if (e.rule) expect(table).toContain(e.included ? e.rule : e.reason);
    }
    expect(table).toMatch(/^in {3}episodes {2}\d+ tok {2}keyword [\d.]+ · .*final [\d.]+ {2}\S+$/m);
    expect(table).toMatch(/^out {2}episodes/m);
    // The entries stay plain data: JSON has no trace of the table.
    expect(JSON.parse(JSON.stringify(entries))).toEqual(entries.map((e) => ({ ...e })));
  });
});
