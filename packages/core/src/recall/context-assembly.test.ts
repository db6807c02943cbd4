import { describe, expect, it } from 'vitest';
import type { Layer, MemoryContext } from '../engine/types.ts';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import type { Scope } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock, testEmbedder } from '../test/index.ts';
import { escapeMemoryText, SECTION_TITLES } from '../text/render-context.ts';
import { defaultTokenizer } from '../tokenizer/tokenizer.ts';

const tokenizer = defaultTokenizer();
const maria: Scope = { orgId: 'acme', userId: 'maria' };
const thread = (threadId: string): Scope => ({ ...maria, threadId });

/** The `- ` lines under one section title of a rendered block (without the marker). */
function sectionLines(rendered: string, section: keyof typeof SECTION_TITLES): string[] {
  const lines = rendered.split('\n');
  const start = lines.indexOf(SECTION_TITLES[section]);
  if (start < 0) return [];
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('- ')) break;
    out.push(line.slice(2));
  }
  return out;
}

function setup() {
  const clock = manualClock('2026-03-02T09:00:00Z');
  const store = memoryStore();
  const memory = createMemory({ store, clock, embedder: testEmbedder(), tokenizer });
  return { clock, store, memory };
}

async function say(memory: ReturnType<typeof setup>['memory'], scope: Scope, texts: string[]) {
  for (const content of texts) await memory.observe(scope, { role: 'user', content });
}

/** An afternoon of notes on one order: more than a 600-token recall's window holds. */
const ORDER_NOTES = [
  "Going through Supplier X's steel order with you now. The beams come to $4,200 in total, delivered to the Northside site.",
  'The order number is PO-7781.',
  'Delivery has to reach the Northside site before the slab pour on 14 April.',
  'Site contact for deliveries is Dan Okafor, he signs the delivery notes.',
  'Rebar: 120 bundles of 12 mm, from the same supplier.',
  'Gate B is the only gate that takes trucks over 7.5 tonnes.',
  'Crane hire is booked separately, not through the main contractor.',
  'Invoices go to ap@acme.example with the PO number in the subject.',
  'The steel must come with mill certificates, one per batch.',
  'Galvanised finish on all external beams.',
  'Offloading is between 7am and 3pm, weekdays only.',
  'Any damaged beams get photographed and reported within 24 hours.',
  'Retention is 5% until the structural engineer signs off.',
  'Please remind me to chase the mill certificates next Tuesday.',
  'The structural engineer is Lena Park from Park & Hale.',
  'Bolts and fixings come from a different supplier, Fastenal.',
  'We need the shop drawings approved before fabrication starts.',
  'Site parking for the delivery driver is on Mill Road.',
  'Weekend deliveries are not allowed under the council permit.',
  'The site manager wants a call an hour before each truck arrives.',
];

describe('the rolling summary in the block', () => {
  it('keeps sentences with literals no fact holds when it must shrink, and shows what sections.summary says', async () => {
    const { memory } = setup();
    const scope = thread('steel-order');
    await say(memory, scope, ORDER_NOTES);
    const ctx = await memory.recall(scope, {
      query: 'What did the steel beams come to in total?',
      budget: { tokens: 600 },
    });
    const rendered = ctx.render();
    const shown = sectionLines(rendered, 'summary');
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.some((line) => line.includes('$4,200'))).toBe(true);
    // The section is exactly what the block shows, not the full stored summary.
    expect(ctx.sections.summary?.split('\n').map((l) => escapeMemoryText(l))).toEqual(shown);
    expect(ctx.tokens).toBeLessThanOrEqual(600);
    expect(tokenizer.count(rendered)).toBe(ctx.tokens);
  });

  it('shows whole sentences with their speaker, never a cut one', async () => {
    const { memory } = setup();
    const scope = thread('steel-order');
    await memory.observe(
      scope,
      ORDER_NOTES.map((content) => ({ role: 'user' as const, name: 'Maria', content })),
    );
    const ctx = await memory.recall(scope, {
      query: 'Who signs the delivery notes?',
      budget: { tokens: 500 },
    });
    const shown = sectionLines(ctx.render(), 'summary');
    expect(shown.length).toBeGreaterThan(0);
    const sentences = new Set(ORDER_NOTES.flatMap((note) => note.split(/(?<=\.) /)).map(escapeMemoryText));
    for (const line of shown) {
      expect(line.startsWith('Maria: '), line).toBe(true);
      expect(line.endsWith('…'), line).toBe(false);
      for (const sentence of line.slice('Maria: '.length).split(/(?<=\.) /)) {
        expect(sentences.has(sentence), sentence).toBe(true);
      }
    }
  });

  it('drops sentences whose literals are stored as facts before sentences whose literals are not', async () => {
    const { memory } = setup();
    const scope = thread('lead-times');
    await say(memory, scope, [
      "Supplier X's lead time is 45 days.",
      'Ben Okafor confirmed the Rotterdam slot on 8 May 2023.',
      ...Array.from(
        { length: 14 },
        (_, i) => `Small talk about the weather and lunch plans, round ${'abcdefghijklmn'[i]}.`,
      ),
    ]);
    // Without the relevance bar the lead-time fact is in the block, though the query is about lunch.
    const ctx = await memory.recall(scope, {
      query: 'lunch plans',
      budget: { tokens: 220 },
      relevanceBar: false,
    });
    const summary = ctx.sections.summary ?? '';
    // The lead time is a fact (shown in the facts); the Rotterdam sentence exists nowhere else.
    expect(summary).toContain('8 May 2023');
    expect(ctx.render()).toContain('supplier x · lead time: 45 days');
    const entry = ctx.explain().find((e) => e.layer === 'summary' && e.id.startsWith('summary:'));
    expect(entry?.included).toBe(true);
  });
});

describe('outdated episodes', () => {
  it('are not quoted once the value is superseded: the block shows the current fact', async () => {
    const { memory, clock } = setup();
    await say(memory, thread('monday'), ["Supplier X's lead time is 45 days."]);
    clock.advanceDays(7);
    await say(memory, thread('next-monday'), ['No, the lead time is actually 30 days, not 45.']);
    for (const [day, question] of [
      [2, "What's Supplier X's lead time?"],
      [1, 'When does steel from Supplier X arrive if I order today?'],
    ] as const) {
      clock.advanceDays(day);
      const scope = thread(`later-${day}`);
      const ctx = await memory.recall(scope, { query: question, budget: { tokens: 600 } });
      expect(ctx.render()).not.toContain('45 days');
      expect(ctx.sections.facts.map((f) => f.fact.value)).toContain('30 days');
      const old = ctx.explain().find((e) => e.text?.includes("Supplier X's lead time is 45 days."));
      expect(old?.included).toBe(false);
      expect(old?.rule).toMatch(/states a value since superseded \(supplier x · lead time\)/);

      // Without the bar, the old turn may be quoted, and then only with the corrected value beside it.
      const all = await memory.recall(scope, {
        query: question,
        budget: { tokens: 600 },
        relevanceBar: false,
      });
      const episodeLines = sectionLines(all.render(), 'episodes').filter((l) => l.includes('45 days'));
      expect(episodeLines).toHaveLength(1);
      expect(episodeLines[0]).toMatch(
        /Supplier X's lead time is 45 days\. \(outdated: supplier x · lead time is now 30 days, corrected 2026-03-09\)$/,
      );
    }
  });
});

describe('facts in the budget', () => {
  it('reserves room for the facts the query asks about before episodes, and leaves out the rest', async () => {
    const { memory, store, clock } = setup();
    const scope = thread('setup');
    await say(memory, scope, [
      'Construction suppliers are paid net 60.',
      "Supplier X's lead time is 45 days.",
    ]);
    clock.advanceDays(1);
    await say(memory, thread('finance'), [
      'Our approval limit is 50,000 USD; anything above it needs sign-off from the CFO.',
    ]);
    for (let i = 0; i < 40; i++) {
      await say(memory, thread(`notes-${i}`), [
        `Supplier X shipment ${i} of steel is on its way; the lead time matters for slab ${i}.`,
      ]);
      clock.advance(60_000);
    }
    expect((await store.facts.find({ scope: maria })).items.length).toBe(3);
    const query = "Is Supplier X's lead time still the same?";
    const ctx = await memory.recall(thread('question'), { query, budget: { tokens: 600 } });
    const facts = sectionLines(ctx.render(), 'facts').join('\n');
    expect(facts).toContain('lead time: 45 days');
    expect(facts).not.toContain('approval limit');
    const limit = ctx.explain().find((e) => e.text?.includes('approval limit: 50,000 USD'));
    expect(limit?.included).toBe(false);
    expect(limit?.rule).toMatch(/below the relevance bar/);
    expect(ctx.tokens).toBeLessThanOrEqual(600);

    // Without the bar, every current fact is reserved before the 40 notes.
    const all = await memory.recall(thread('question'), {
      query,
      budget: { tokens: 600 },
      relevanceBar: false,
    });
    const allFacts = sectionLines(all.render(), 'facts').join('\n');
    for (const line of ['approval limit: 50,000 USD', 'payment terms: net 60', 'lead time: 45 days']) {
      expect(allFacts).toContain(line);
    }
    expect(all.sections.episodes.length).toBeGreaterThan(3);
  });
});

describe('one recall never repeats itself', () => {
  it('leaves out episodes whose message is in the recent conversation', async () => {
    const { memory } = setup();
    const scope = thread('today');
    await say(memory, scope, [
      // A sentence the rules extractor keeps no fact of, so only its episode can cover it.
      'The Rotterdam warehouse closes early on Fridays.',
      'Noted for the Friday pickups.',
    ]);
    const ctx = await memory.recall(scope, { query: 'When does the Rotterdam warehouse close?' });
    expect(sectionLines(ctx.render(), 'working').join('\n')).toContain('closes early');
    expect(ctx.sections.episodes).toEqual([]);
    const left = ctx.explain().filter((e) => e.layer === 'episodes' && !e.included && e.id.startsWith('ep_'));
    expect(left.length).toBe(2);
    for (const e of left) expect(e.reason).toMatch(/in the recent conversation/);
    // From another thread, the same episodes are recalled.
    const other = await memory.recall(thread('tomorrow'), {
      query: 'When does the Rotterdam warehouse close?',
    });
    expect(other.sections.episodes.map((e) => e.episode.text)).toContain(
      // A sentence the rules extractor keeps no fact of, so only its episode can cover it.
      'The Rotterdam warehouse closes early on Fridays.',
    );
  });

  it('shows an evicted turn once: in the summary when it holds the turn, not again as an episode', async () => {
    const { memory } = setup();
    const scope = thread('steel-order');
    await say(memory, scope, ORDER_NOTES);
    const ctx = await memory.recall(scope, {
      query: 'What did the steel beams come to in total?',
      budget: { tokens: 600 },
    });
    const rendered = ctx.render();
    const all = [
      ...sectionLines(rendered, 'summary'),
      ...sectionLines(rendered, 'episodes'),
      ...sectionLines(rendered, 'working'),
    ].join('\n');
    for (const note of ORDER_NOTES) {
      for (const sentence of note.split(/(?<=\.) /)) {
        const escaped = escapeMemoryText(sentence);
        const count = all.split(escaped).length - 1;
        expect(count, sentence).toBeLessThanOrEqual(1);
      }
    }
    expect(
      ctx
        .explain()
        .some((e) => e.layer === 'episodes' && /summary of this conversation holds it/.test(e.reason)),
    ).toBe(true);
  });
});

describe('tool calls in the working window', () => {
  it('renders an assistant message that only calls tools as its calls, and skips empty messages', async () => {
    const { memory } = setup();
    const scope = thread('tools');
    await memory.observe(scope, [
      { role: 'user', content: 'What is the lead time of Supplier X?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'lookup_fact', input: { entity: 'Supplier X', key: 'lead time' } }],
      },
      { role: 'tool', name: 'lookup_fact', toolCallId: 'c1', content: '30 days' },
      { role: 'assistant', content: '' },
      { role: 'assistant', content: 'It is 30 days.' },
    ]);
    const ctx = await memory.recall(scope, {});
    const lines = sectionLines(ctx.render(), 'working');
    expect(lines).toEqual([
      'user: What is the lead time of Supplier X?',
      'assistant: calls lookup_fact({"entity":"Supplier X","key":"lead time"})',
      'lookup_fact (tool): 30 days',
      'assistant: It is 30 days.',
    ]);
    expect(lines.some((l) => /^assistant:\s*$/.test(l))).toBe(false);
    expect(ctx.sections.working).toHaveLength(4);
  });
});

describe('render({ omit })', () => {
  async function recallWithWindow(): Promise<MemoryContext> {
    const { memory } = setup();
    const scope = thread('steel-order');
    await say(memory, scope, ORDER_NOTES);
    return memory.recall(scope, { query: 'Who is the structural engineer?', budget: { tokens: 800 } });
  }

  it('leaves the named sections out of the same selection', async () => {
    const ctx = await recallWithWindow();
    const full = ctx.render();
    const rest = ctx.render({ omit: ['working'] });
    expect(sectionLines(full, 'working').length).toBeGreaterThan(0);
    expect(sectionLines(rest, 'working')).toEqual([]);
    for (const section of ['facts', 'summary', 'episodes'] as const) {
      expect(sectionLines(rest, section)).toEqual(sectionLines(full, section));
    }
    expect(tokenizer.count(rest)).toBeLessThan(ctx.tokens);
    expect(ctx.render()).toBe(full);
    expect(ctx.render({ omit: [] })).toBe(full);
    const everything: Layer[] = ['working', 'summary', 'facts', 'episodes', 'graph'];
    expect(ctx.render({ omit: everything })).toBe('');
  });

  it('rejects an unknown section with a typed error', async () => {
    const ctx = await recallWithWindow();
    const error = (() => {
      try {
        ctx.render({ omit: ['history' as Layer] });
      } catch (e) {
        return e;
      }
    })();
    expect(StrataError.hasCode(error, 'invalid_input')).toBe(true);
  });
});
