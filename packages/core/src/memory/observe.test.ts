import { describe, expect, it } from 'vitest';
import type { MemoryOptions } from '../engine/types.ts';
import { StrataError } from '../errors/strata-error.ts';
import { modelExtractor } from '../extract/model-extractor.ts';
import { type Embedder, type Extractor, PORT_SPECIFICATION_VERSION } from '../ports/ports.ts';
import type { Scope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock, scriptedModel, testEmbedder } from '../test/index.ts';
import { createMemory } from './create-memory.ts';

const thread: Scope = { orgId: 'acme', userId: 'maria', threadId: 't1' };
const user: Scope = { orgId: 'acme', userId: 'maria' };

function setup(options: Partial<MemoryOptions> = {}) {
  const clock = manualClock();
  const store = options.store ?? memoryStore();
  const memory = createMemory({ store, clock, ...options });
  return { clock, store, memory };
}

async function episodesAt(
  store: Store,
  scope: Scope,
  status: Array<'active' | 'merged' | 'archived'> = ['active'],
) {
  return (await store.episodes.list({ scope, status, limit: 1000 })).items;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error.code;
    throw error;
  }
  return 'resolved';
}

/** An embedder that returns the vectors it was given for each text (unit x-axis otherwise). */
function tableEmbedder(table: Record<string, number[]>, maxBatchSize = 16): Embedder & { calls: number[] } {
  const calls: number[] = [];
  return {
    specificationVersion: PORT_SPECIFICATION_VERSION,
    id: 'table',
    dimensions: 3,
    maxBatchSize,
    calls,
    async embed({ texts }) {
      calls.push(texts.length);
      return texts.map((t) => table[t] ?? [1, 0, 0]);
    },
  };
}

describe('observe: layers written', () => {
  it('appends to the thread buffer and writes one episode per message with provenance', async () => {
    const { memory, store, clock } = setup();
    const at = new Date('2025-12-24T10:00:00Z');
    const result = await memory.observe(thread, [
      {
        id: 'm1',
        role: 'user',
        name: 'Maria',
        content: 'We decided to ship on May 3 with a $4,200 budget.',
        at,
      },
      { id: 'm2', role: 'assistant', content: 'Got it.' },
    ]);
    expect(result.messages.map((m) => [m.id, m.seq, m.role])).toEqual([
      ['m1', 1, 'user'],
      ['m2', 2, 'assistant'],
    ]);
    const stored = await store.threads.listMessages({ scope: thread });
    expect(stored.map((m) => m.content)).toEqual([
      'We decided to ship on May 3 with a $4,200 budget.',
      'Got it.',
    ]);
    expect(result.episodes).toHaveLength(2);
    const [first, second] = result.episodes;
    expect(first).toMatchObject({
      scope: user,
      text: 'We decided to ship on May 3 with a $4,200 budget.',
      role: 'user',
      speaker: 'Maria',
      occurredAt: at.getTime(),
      provenance: { source: 'observation', messageId: 'm1', threadId: 't1', principalId: 'maria' },
    });
    expect(second!.occurredAt).toBe(clock.now());
    expect(first!.importance).toBeGreaterThan(second!.importance);
    expect(first!.embedding).toBeUndefined();
  });

  it('stores episodes and extracts facts for a scope without a thread, with no buffer', async () => {
    const { memory, store } = setup();
    const result = await memory.observe(user, {
      id: 'n1',
      role: 'user',
      content: "Supplier X's lead time is 45 days.",
    });
    expect(result.messages).toEqual([]);
    expect((await store.threads.list({ scope: user })).items).toEqual([]);
    expect(result.episodes).toHaveLength(1);
    expect(result.facts.written.map((f) => f.value)).toEqual(['45 days']);
  });

  it('shares long-term items across the threads of a user, keeping the thread in provenance', async () => {
    const { memory } = setup();
    await memory.observe(thread, { id: 'm1', role: 'user', content: "Supplier X's lead time is 45 days." });
    const fact = await memory.facts.get(
      { ...user, threadId: 't2' },
      { entity: 'Supplier X', key: 'lead time' },
    );
    expect(fact).toMatchObject({
      value: '45 days',
      scope: user,
      provenance: { threadId: 't1', messageId: 'm1' },
    });
    expect(
      await memory.facts.get({ orgId: 'acme', userId: 'bob' }, { entity: 'Supplier X', key: 'lead time' }),
    ).toBeNull();
  });

  it("keeps long-term items in the thread with longTermScope: 'thread'", async () => {
    const { memory } = setup({ policy: { longTermScope: 'thread' } });
    const result = await memory.observe(thread, {
      id: 'm1',
      role: 'user',
      content: "Supplier X's lead time is 45 days.",
    });
    expect(result.episodes[0]!.scope).toEqual(thread);
    expect(await memory.facts.get(thread, { entity: 'Supplier X', key: 'lead time' })).not.toBeNull();
    expect(
      await memory.facts.get({ ...user, threadId: 't2' }, { entity: 'Supplier X', key: 'lead time' }),
    ).toBeNull();
  });

  it('skips extraction when asked', async () => {
    const { memory } = setup();
    const result = await memory.observe(
      thread,
      { role: 'user', content: "Supplier X's lead time is 45 days." },
      { extract: false },
    );
    expect(result.episodes).toHaveLength(1);
    expect(result.facts.written).toEqual([]);
  });
});

describe('observe: embedding', () => {
  it('embeds observed texts as documents', async () => {
    const purposes: Array<string | undefined> = [];
    const base = tableEmbedder({});
    const embedder: Embedder = {
      ...base,
      embed: async (args) => {
        purposes.push(args.purpose);
        return base.embed(args);
      },
    };
    const { memory } = setup({ embedder });
    await memory.observe(thread, [{ role: 'user', content: 'Deploys happen on Tuesdays.' }]);
    expect(purposes).toEqual(['document']);
  });
});

describe('observe: retries and duplicates', () => {
  it('is a no-op for a message id already observed in a thread', async () => {
    const { memory, store } = setup();
    const message = { id: 'm1', role: 'user' as const, content: "Supplier X's lead time is 45 days." };
    await memory.observe(thread, message);
    const again = await memory.observe(thread, message);
    expect(again.messages).toEqual([]);
    expect(again.episodes).toEqual([]);
    expect(again.facts.confirmed).toEqual([]);
    expect(await store.threads.listMessages({ scope: thread })).toHaveLength(1);
    expect(await episodesAt(store, user)).toHaveLength(1);
    expect((await memory.audit.list(user, { actions: ['observe'] })).items).toHaveLength(1);
  });

  it('is a no-op for a message id already observed without a thread', async () => {
    const { memory, store } = setup();
    const message = { id: 'n1', role: 'user' as const, content: 'We picked Acme as our vendor.' };
    await memory.observe(user, message);
    const again = await memory.observe(user, message);
    expect(again.episodes).toEqual([]);
    expect((await episodesAt(store, user))[0]!.accessCount).toBe(0);
  });

  it.each([
    ['with transactions', true],
    ['without transactions', false],
  ])('stores a message once when the same retry races itself (%s)', async (_, transactions) => {
    const { memory, store } = setup({ store: memoryStore({ capabilities: { transactions } }) });
    const message = { id: 'm1', role: 'user' as const, content: "Supplier X's lead time is 45 days." };
    await Promise.all([
      memory.observe(thread, message),
      memory.observe(thread, message),
      memory.observe(thread, message),
    ]);
    expect(await store.threads.listMessages({ scope: thread })).toHaveLength(1);
    expect(await episodesAt(store, user)).toHaveLength(1);
    expect(await memory.facts.history(user, { entity: 'Supplier X', key: 'lead time' })).toHaveLength(1);
    expect((await memory.audit.list(user, { actions: ['observe'] })).items).toHaveLength(1);
  });

  it('does not write exact duplicates again and records access on the existing episode', async () => {
    const { memory, store } = setup();
    await memory.observe(thread, { id: 'm1', role: 'user', content: 'I prefer window seats.' });
    const second = await memory.observe({ ...thread, threadId: 't2' }, [
      { id: 'm2', role: 'user', content: 'i prefer   WINDOW seats!' },
      { id: 'm3', role: 'user', content: 'I prefer window seats' },
    ]);
    expect(second.episodes).toEqual([]);
    expect(second.duplicates).toBe(2);
    const [episode] = await episodesAt(store, user);
    expect(second.folded).toEqual([
      { messageId: 'm2', episodeId: episode!.id, similarity: 1 },
      { messageId: 'm3', episodeId: episode!.id, similarity: 1 },
    ]);
    expect(episode!.accessCount).toBe(2);
    expect((await episodesAt(store, user)).length).toBe(1);
  });

  it('folds duplicates inside one batch', async () => {
    const { memory, store } = setup();
    const result = await memory.observe(user, [
      { role: 'user', content: 'Deploys happen on Tuesdays.' },
      { role: 'user', content: 'deploys happen on tuesdays' },
    ]);
    expect(result.episodes).toHaveLength(1);
    expect(result.duplicates).toBe(1);
    expect(result.folded.map((f) => f.episodeId)).toEqual([result.episodes[0]!.id]);
    expect((await episodesAt(store, user))[0]!.accessCount).toBe(1);
  });

  it('does not write near duplicates (cosine >= duplicateSimilarity at the same scope)', async () => {
    const embedder = tableEmbedder({
      'The deploy window is Tuesday.': [1, 0, 0],
      'Deploy window: Tuesday.': [0.99, 0.141, 0],
      'Lunch was good.': [0, 1, 0],
    });
    const { memory, store } = setup({ embedder });
    await memory.observe(user, { role: 'user', content: 'The deploy window is Tuesday.' });
    const near = await memory.observe(user, [
      { role: 'user', content: 'Deploy window: Tuesday.' },
      { role: 'user', content: 'Lunch was good.' },
    ]);
    expect(near.duplicates).toBe(1);
    expect(near.episodes.map((e) => e.text)).toEqual(['Lunch was good.']);
    const episodes = await episodesAt(store, user);
    const kept = episodes.find((e) => e.text === 'The deploy window is Tuesday.')!;
    expect(near.folded).toHaveLength(1);
    expect(near.folded[0]!.episodeId).toBe(kept.id);
    expect(near.folded[0]!.similarity).toBeGreaterThanOrEqual(0.95);
    expect(episodes.find((e) => e.text === 'The deploy window is Tuesday.')!.accessCount).toBe(1);
    // Another user's identical text is not a duplicate of this one.
    const other = await memory.observe(
      { orgId: 'acme', userId: 'bob' },
      { role: 'user', content: 'Deploy window: Tuesday.' },
    );
    expect(other.episodes).toHaveLength(1);
  });

  it('never takes a new value for a near duplicate of the old one', async () => {
    // The offline encoder puts these two at 0.99 cosine: only the number differs.
    const embedder = tableEmbedder({
      "Supplier X's lead time is 45 days.": [1, 0, 0],
      "Supplier X's lead time is 30 days.": [0.995, 0.0999, 0],
      'Supplier X lead time is 45 days': [0.999, 0.0447, 0],
    });
    const { memory, store } = setup({ embedder });
    await memory.observe(user, { role: 'user', content: "Supplier X's lead time is 45 days." });
    const changed = await memory.observe(user, {
      role: 'user',
      content: "Supplier X's lead time is 30 days.",
    });
    expect(changed.duplicates).toBe(0);
    expect(changed.episodes.map((e) => e.text)).toEqual(["Supplier X's lead time is 30 days."]);
    // The new value's fact points at the episode that says it.
    expect(changed.facts.written[0]!.provenance.episodeId).toBe(changed.episodes[0]!.id);
    const same = await memory.observe(user, { role: 'user', content: 'Supplier X lead time is 45 days' });
    expect(same.duplicates).toBe(1);
    expect((await episodesAt(store, user)).map((e) => e.text).sort()).toEqual([
      "Supplier X's lead time is 30 days.",
      "Supplier X's lead time is 45 days.",
    ]);
  });

  it('does not fold messages with different access levels', async () => {
    const { memory } = setup();
    await memory.observe(user, { role: 'user', content: 'The merger closes Friday.' });
    const restricted = await memory.observe(user, {
      role: 'user',
      content: 'The merger closes Friday.',
      access: 'admin',
    });
    expect(restricted.episodes).toHaveLength(1);
    expect(restricted.episodes[0]!.accessLevel).toBe(2);
  });
});

describe('observe: embeddings', () => {
  it('embeds in batches of maxBatchSize and stores unit vectors', async () => {
    const embedder = tableEmbedder({}, 2);
    const { memory } = setup({ embedder });
    const result = await memory.observe(
      user,
      ['one', 'two', 'three', 'four', 'five'].map((w) => ({
        role: 'user' as const,
        content: `Item ${w} is ready.`,
      })),
    );
    expect(embedder.calls).toEqual([2, 2, 1]);
    for (const episode of result.episodes.slice(0, 1)) expect(episode.embedding).toEqual([1, 0, 0]);
  });

  it('stores episodes without vectors and audits embed.failed when the embedder throws', async () => {
    const embedder: Embedder = {
      ...testEmbedder(),
      async embed() {
        throw new Error('embedding service down');
      },
    };
    const { memory, store } = setup({ embedder });
    const result = await memory.observe(thread, {
      role: 'user',
      content: "Supplier X's lead time is 45 days.",
    });
    expect(result.episodes).toHaveLength(1);
    expect(result.episodes[0]!.embedding).toBeUndefined();
    expect(result.facts.written).toHaveLength(1);
    const failures = await memory.audit.list(user, { actions: ['embed.failed'] });
    expect(failures.items).toHaveLength(1);
    expect(String(failures.items[0]!.details.error)).toContain('embedding service down');
    expect(await episodesAt(store, user)).toHaveLength(1);
  });
});

describe('observe: extraction', () => {
  const good = JSON.stringify({
    facts: [
      {
        message: 1,
        entityType: 'supplier',
        entity: 'Supplier X',
        key: 'lead time',
        value: '45 days',
        confidence: 0.9,
        kind: 'statement',
        evidence: 'x',
      },
    ],
  });

  it('makes one model call per observe call, whatever the batch size', async () => {
    const model = scriptedModel([good]);
    const { memory } = setup({ extractor: modelExtractor({ model }) });
    const result = await memory.observe(thread, [
      { role: 'user', content: "Supplier X's lead time is 45 days." },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: 'Thanks.' },
    ]);
    expect(model.calls).toHaveLength(1);
    expect(result.facts.written.map((f) => [f.entityId, f.value, f.provenance.extractor])).toEqual([
      ['supplier x', '45 days', 'model:scripted'],
    ]);
  });

  it('gives the extractor earlier turns as context and known entity names', async () => {
    const model = scriptedModel([good]);
    const { memory } = setup({ extractor: modelExtractor({ model }) });
    await memory.observe(
      thread,
      { role: 'user', content: 'Billing depends on Postgres.' },
      { extract: false },
    );
    await memory.graph.upsertNode(thread, { name: 'Globex', type: 'supplier' });
    await memory.observe(thread, { role: 'user', content: 'And the lead time?' });
    expect(model.calls[0]!.prompt).toContain('- user: Billing depends on Postgres.');
    expect(model.calls[0]!.prompt).toContain('Globex');
  });

  it('records malformed model output as extract.failed with the raw output and keeps the turn', async () => {
    const raw = 'Sorry, I cannot help with that.';
    const { memory, store } = setup({ extractor: modelExtractor({ model: scriptedModel([raw]) }) });
    const result = await memory.observe(thread, {
      id: 'm1',
      role: 'user',
      content: "Supplier X's lead time is 45 days.",
    });
    expect(result.extraction).toMatchObject({ extractor: 'model:scripted', ok: false });
    expect(result.extraction.error).toMatch(/did not return a JSON object/);
    expect(result.episodes).toHaveLength(1);
    expect(await store.threads.listMessages({ scope: thread })).toHaveLength(1);
    const [entry] = (await memory.audit.list(user, { actions: ['extract.failed'] })).items;
    expect(entry!.details).toMatchObject({
      extractor: 'model:scripted',
      code: 'model_output_invalid',
      raw,
      messageIds: ['m1'],
    });
  });

  it('records a throwing model as extract.failed and does not throw', async () => {
    const { memory } = setup({ extractor: modelExtractor({ model: scriptedModel([new Error('timeout')]) }) });
    const result = await memory.observe(user, { role: 'user', content: 'hello' });
    expect(result.extraction.ok).toBe(false);
    const [entry] = (await memory.audit.list(user, { actions: ['extract.failed'] })).items;
    expect(entry!.details.code).toBe('model_failure');
  });

  it('validates any extractor output before writing from it', async () => {
    const broken: Extractor = {
      specificationVersion: PORT_SPECIFICATION_VERSION,
      id: 'broken',
      kind: 'rules',
      async extract() {
        return { facts: [{ entity: 'x' }], entities: [], relations: [] } as never;
      },
    };
    const { memory } = setup({ extractor: broken });
    const result = await memory.observe(user, { role: 'user', content: 'Anything.' });
    expect(result.extraction.ok).toBe(false);
    expect(result.episodes).toHaveLength(1);
    expect(await memory.facts.list(user)).toEqual([]);
  });
});

describe('observe: transactions and validation', () => {
  it('groups its writes in one transaction: a failing write leaves nothing behind', async () => {
    const base = memoryStore();
    let transactions = 0;
    const failing: Store = {
      ...base,
      async transaction(fn) {
        transactions += 1;
        return base.transaction((tx) =>
          fn({
            ...tx,
            graph: {
              ...tx.graph,
              addEdge: async () => {
                throw new StrataError({ code: 'store_failure', message: 'disk full' });
              },
            },
          }),
        );
      },
    };
    const { memory } = setup({ store: failing });
    expect(
      await codeOf(memory.observe(thread, { role: 'user', content: 'Billing depends on Postgres.' })),
    ).toBe('store_failure');
    expect(transactions).toBe(1);
    expect(await base.threads.listMessages({ scope: thread })).toEqual([]);
    expect(await episodesAt(base, user)).toEqual([]);
    expect((await base.audit.list({ scope: { orgId: 'acme' } })).items).toEqual([]);
  });

  it.each([
    ['an empty scope', {}, { role: 'user', content: 'x' }, 'invalid_scope'],
    ['a scope with unknown keys', { tenant: 'x' }, { role: 'user', content: 'x' }, 'invalid_scope'],
    ['an unknown role', thread, { role: 'robot', content: 'x' }, 'invalid_input'],
    ['an out-of-range importance', thread, { role: 'user', content: 'x', importance: 2 }, 'invalid_input'],
    ['an unknown access role', thread, { role: 'user', content: 'x', access: 'owner' }, 'invalid_input'],
    ['an unparseable time', thread, { role: 'user', content: 'x', at: 'yesterday-ish' }, 'invalid_input'],
    ['an unknown field', thread, { role: 'user', content: 'x', scope: { orgId: 'other' } }, 'invalid_input'],
    ['an oversized message', thread, { role: 'user', content: 'x'.repeat(200_001) }, 'payload_too_large'],
    ['an empty batch', thread, [], 'invalid_input'],
  ])('rejects %s and stores nothing', async (_, scope, input, code) => {
    const { memory, store } = setup();
    expect(await codeOf(memory.observe(scope as Scope, input as never))).toBe(code);
    expect((await store.audit.list({ scope: { orgId: 'acme' } })).items).toEqual([]);
    expect(await episodesAt(store, user)).toEqual([]);
  });

  it('rejects a bad message in a batch without storing the good ones', async () => {
    const { memory, store } = setup();
    const batch = [
      { role: 'user', content: 'Fine.' },
      { role: 'user', content: 'Bad.', importance: -1 },
    ];
    expect(await codeOf(memory.observe(thread, batch as never))).toBe('invalid_input');
    expect(await store.threads.listMessages({ scope: thread })).toEqual([]);
  });
});
