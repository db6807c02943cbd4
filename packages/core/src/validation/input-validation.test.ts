import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import type { Scope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import type { JsonValue } from '../store/records.ts';
import { manualClock } from '../test/index.ts';

/**
 * Bad input at the engine's edge: every time, text and JSON value that no store can hold as
 * written fails with a typed error (never a `RangeError` or `TypeError`), stores nothing, and
 * leaves later reads working.
 */

const thread: Scope = { orgId: 'acme', userId: 'maria', threadId: 't1' };
const user: Scope = { orgId: 'acme', userId: 'maria' };

function setup(clock = manualClock()) {
  const store = memoryStore();
  return { clock, store, memory: createMemory({ store, clock }) };
}

/** The code of the StrataError `promise` rejects with; anything else fails the test. */
async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error.code;
    throw new Error(`not a StrataError: ${String(error)}`, { cause: error });
  }
  return 'resolved';
}

async function stored(store: Store) {
  const [messages, episodes, facts, audit] = await Promise.all([
    store.threads.listMessages({ scope: thread, limit: 1000 }).catch(() => []),
    store.episodes.list({ scope: user, limit: 1000 }),
    store.facts.find({ scope: user, limit: 1000 }),
    store.audit.list({ scope: user, limit: 1000 }),
  ]);
  return {
    messages: messages.length,
    episodes: episodes.items.length,
    facts: facts.items.length,
    audit: audit.items.length,
  };
}

/** `{ a: { a: … { a: 1 } } }`, `levels` objects deep. */
function nested(levels: number): JsonValue {
  let value: JsonValue = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

function circular(): JsonValue {
  const value: Record<string, unknown> = { name: 'loop' };
  value.self = value;
  return value as JsonValue;
}

describe('times', () => {
  it('rejects an observed time outside the Date range or not a real calendar day, storing nothing, and keeps real ones exactly', async () => {
    const { memory, store } = setup();
    const bad: Array<number | string | Date> = [
      9e15,
      Number.MAX_SAFE_INTEGER,
      8.64e15 + 1,
      -1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      new Date(Number.NaN),
      '2026-02-30',
      '2026-02-29',
      '2026-13-01',
      '2026-04-31T10:00:00Z',
      '2026-01-01T25:00:00Z',
      'next tuesday',
      'Feb 30 2026',
    ];
    for (const at of bad) {
      expect(
        await codeOf(memory.observe(thread, { role: 'user', content: 'the lead time is 45 days', at })),
        String(at),
      ).toBe('invalid_input');
    }
    expect(await stored(store)).toEqual({ messages: 0, episodes: 0, facts: 0, audit: 0 });

    // Real days at the edges of the range are kept exactly.
    await memory.observe(thread, [
      { id: 'leap', role: 'user', content: 'leap day note', at: '2024-02-29' },
      { id: 'last', role: 'user', content: 'far future note', at: 8.64e15 },
      { id: 'zone', role: 'user', content: 'zoned note', at: '2026-03-31T23:30:00+02:00' },
    ]);
    const messages = await memory.store.threads.listMessages({ scope: thread });
    expect(messages.map((m) => [m.id, m.createdAt])).toEqual([
      ['leap', Date.UTC(2024, 1, 29)],
      ['last', 8.64e15],
      ['zone', Date.UTC(2026, 2, 31, 21, 30)],
    ]);
    // Recall formats every time it shows; the largest valid one included.
    const context = await memory.recall(thread, { query: 'far future note' });
    expect(context.render()).toContain('far future note');
  });

  it('rejects a clock reading outside the Date range before anything is written', async () => {
    const clock = manualClock();
    const { memory, store } = setup(clock);
    clock.set(0);
    clock.advance(9e15);
    expect(await codeOf(memory.observe(thread, { role: 'user', content: 'hello there' }))).toBe(
      'invalid_input',
    );
    expect(
      await codeOf(memory.facts.remember(user, { entity: 'Supplier X', key: 'lead time', value: '45 days' })),
    ).toBe('invalid_input');
    clock.set('2026-01-01T09:00:00Z');
    expect(await stored(store)).toEqual({ messages: 0, episodes: 0, facts: 0, audit: 0 });
  });

  it('answers a query naming a year before 1970 instead of failing on the window it implies', async () => {
    const { memory } = setup();
    await memory.observe(thread, { role: 'user', content: 'We discussed the 1850 railway archive today.' });
    const context = await memory.recall(thread, {
      query: 'What happened to the railway archive in May 1850?',
    });
    expect(context.render()).toContain('railway archive');
  });

  it('rejects an audit listing from a time past the Date range', async () => {
    const { memory } = setup();
    expect(await codeOf(memory.audit.list(user, { since: 9e15 }))).toBe('invalid_input');
  });
});

describe('JSON values', () => {
  it('rejects values nested too deep or circular with invalid_input at every JSON boundary, storing nothing; accepts 64 levels and shared values', async () => {
    const { memory, store } = setup();
    for (const [label, value] of [
      ['nested 5,000 deep', nested(5_000)],
      ['nested 65 deep', nested(65)],
      ['circular', circular()],
    ] as const) {
      const metadata = { extra: value } as Record<string, JsonValue>;
      const calls: Record<string, Promise<unknown>> = {
        'observe metadata': memory.observe(thread, { role: 'user', content: 'hello', metadata }),
        'observe tool input': memory.observe(thread, {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'c1', name: 'lookup', input: value }],
        }),
        'remember value': memory.facts.remember(user, { entity: 'Supplier X', key: 'terms', value }),
        'remember metadata': memory.facts.remember(user, {
          entity: 'Supplier X',
          key: 'terms',
          value: 1,
          metadata,
        }),
        'state value': memory.state.set(user, 'cursor', value),
        'node properties': memory.graph.upsertNode(user, { name: 'Billing', properties: metadata }),
        'store episode metadata': store.episodes.put({
          episodes: [{ scope: user, text: 'x', occurredAt: 1, provenance: { source: 'api' }, metadata }],
        }),
      };
      for (const [call, promise] of Object.entries(calls)) {
        expect(await codeOf(promise), `${call}: ${label}`).toBe('invalid_input');
      }
    }
    expect(await stored(store)).toEqual({ messages: 0, episodes: 0, facts: 0, audit: 0 });
    expect(await memory.state.get(user, 'cursor')).toBeNull();

    // 64 levels are fine, and so is a value shared by two branches (not a cycle).
    const shared = { unit: 'days' };
    await memory.state.set(user, 'deep', nested(64));
    await memory.state.set(user, 'shared', { a: shared, b: shared });
    expect((await memory.state.get(user, 'deep'))?.value).toEqual(nested(64));
    expect((await memory.state.get(user, 'shared'))?.value).toEqual({ a: shared, b: shared });
  });
});

describe('text stored as written', () => {
  it('rejects lone surrogates and NUL characters in text, names, ids and JSON, storing nothing; keeps every other character', async () => {
    const { memory, store } = setup();
    for (const bad of ['\ud800', 'abc\udc00def', 'x\u0000y']) {
      const calls: Record<string, [Promise<unknown>, string]> = {
        content: [memory.observe(thread, { role: 'user', content: `lead time ${bad}` }), 'invalid_input'],
        name: [memory.observe(thread, { role: 'user', content: 'hi', name: `Ann${bad}` }), 'invalid_input'],
        'metadata value': [
          memory.observe(thread, { role: 'user', content: 'hi', metadata: { note: bad } }),
          'invalid_input',
        ],
        'metadata key': [
          memory.observe(thread, { role: 'user', content: 'hi', metadata: { [`k${bad}`]: 1 } }),
          'invalid_input',
        ],
        'fact entity': [
          memory.facts.remember(user, { entity: `X${bad}`, key: 'terms', value: 1 }),
          'invalid_input',
        ],
        'fact value': [
          memory.facts.remember(user, { entity: 'X', key: 'terms', value: [bad] }),
          'invalid_input',
        ],
        'state key': [memory.state.set(user, `k${bad}`, 1), 'invalid_input'],
        'scope id': [
          memory.observe({ ...thread, userId: `maria${bad}` }, { role: 'user', content: 'hi' }),
          'invalid_scope',
        ],
        'recall query': [memory.recall(thread, { query: `lead ${bad}` }), 'invalid_input'],
      };
      for (const [label, [promise, code]] of Object.entries(calls)) {
        expect(await codeOf(promise), `${label}: ${JSON.stringify(bad)}`).toBe(code);
      }
    }
    expect(await stored(store)).toEqual({ messages: 0, episodes: 0, facts: 0, audit: 0 });

    // Surrogate pairs, and any other character, are kept exactly as written.
    const content = 'Ship 🚢 to Zürich — 東京 next 𝔐onday\ttab';
    await memory.observe(thread, { id: 'm1', role: 'user', content, metadata: { note: '👍🏽' } });
    const [message] = await memory.store.threads.listMessages({ scope: thread });
    expect(message?.content).toBe(content);
    expect(message?.metadata).toEqual({ note: '👍🏽' });
  });
});
