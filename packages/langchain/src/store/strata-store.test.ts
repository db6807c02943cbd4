import { AIMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { tool } from '@langchain/core/tools';
import {
  type BaseStore,
  type LangGraphRunnableConfig,
  MessagesAnnotation,
  StateGraph,
} from '@langchain/langgraph';
import { memoryStore, type Store } from '@strata-memory/core';
import { manualClock } from '@strata-memory/core/test';
import { createAgent, FakeToolCallingModel } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { newMemory, strataRejection } from '../../test/memory-fixtures.ts';
import { strataMemoryMiddleware } from '../middleware/strata-memory-middleware.ts';
import { namespaceLevels } from './namespace-scope.ts';
import { ITEM_ENTITY_TYPE, ITEM_FACT_KEY, type SearchItem, StrataStore } from './strata-store.ts';

const acme = { orgId: 'acme' };

function setup(options: Partial<ConstructorParameters<typeof StrataStore>[0]> = {}) {
  const clock = manualClock();
  const memory = newMemory(undefined, clock);
  const store = new StrataStore({ memory, scope: acme, ...options });
  return { memory, store, clock };
}

const factKey = (path: string) => ({ entityType: ITEM_ENTITY_TYPE, entity: path, key: ITEM_FACT_KEY });

describe('StrataStore', () => {
  it('keeps each item as a versioned fact: a changed put supersedes, the history stays', async () => {
    const { memory, store, clock } = setup();
    await store.put(['prefs'], 'food', { likes: 'pizza' });
    clock.advance(60_000);
    await store.put(['prefs'], 'food', { likes: 'sushi' });
    const history = await memory.facts.history(acme, factKey('prefs/food'));
    expect(history.map((f) => [f.value, f.status, f.version])).toEqual([
      [{ likes: 'pizza' }, 'superseded', 1],
      [{ likes: 'sushi' }, 'active', 2],
    ]);
    const item = await store.get(['prefs'], 'food');
    expect(item!.createdAt.getTime()).toBe(history[0]!.createdAt);
    expect(item!.updatedAt.getTime()).toBe(history[0]!.createdAt + 60_000);
    clock.advance(1000);
    await store.put(['prefs'], 'food', { likes: 'sushi' });
    expect((await store.get(['prefs'], 'food'))!.updatedAt.getTime()).toBe(history[0]!.createdAt + 61_000);
    expect(await memory.facts.history(acme, factKey('prefs/food'))).toHaveLength(2);
  });

  it('puts items in the engine’s recall once, as a readable fact line', async () => {
    const { memory, store } = setup();
    await store.put(['memories'], 'm1', { text: 'The user is vegetarian' });
    await store.put(['prefs'], 'profile', {
      city: 'Paris',
      diet: { kind: 'vegan' },
      tags: ['quiet', 'early'],
    });
    const m1 = 'store item memories/m1 · value: text: The user is vegetarian';
    const profile = 'prefs/profile · value: city: Paris; diet.kind: vegan; tags: quiet, early';
    for (const [query, expected] of [
      ['Is the user vegetarian?', [m1]],
      ['Which city, diet and tags?', [profile]],
      [undefined, [m1, profile]],
    ] as const) {
      const rendered = (await memory.recall(acme, query ? { query } : {})).render();
      const lines = (words: string) => rendered.split('\n').filter((l) => l.includes(words));
      // Each item the block shows is one readable line, never a second copy as an episode.
      for (const line of expected)
        expect(lines(line.split(': ').at(-1)!)).toEqual([expect.stringContaining(line)]);
      expect(rendered).not.toMatch(/[{}"]/);
    }
  });

  it('a search reads the page it returns from the store, not every item of the scope', async () => {
    const inner = memoryStore();
    let factsRead = 0;
    const find = inner.facts.find.bind(inner.facts);
    const counting: Store = Object.assign(Object.create(inner) as Store, {
      facts: Object.assign(Object.create(inner.facts) as Store['facts'], {
        find: async (args: Parameters<Store['facts']['find']>[0]) => {
          const page = await find(args);
          factsRead += page.items.length;
          return page;
        },
      }),
    });
    const memory = newMemory(counting);
    const store = new StrataStore({ memory, scope: acme, index: false });
    for (let i = 0; i < 60; i++) await store.put(['docs'], `k${i}`, { n: i, even: i % 2 === 0 });
    factsRead = 0;
    const page = await store.search(['docs'], { filter: { even: true }, limit: 3, offset: 2 });
    // Every put at the same clock time: the order falls back to the item path.
    const evens = Array.from({ length: 30 }, (_, i) => `k${i * 2}`).sort();
    expect(page.map((item) => item.key)).toEqual(evens.slice(2, 5));
    expect(factsRead).toBe(3);
  });

  it('search ranks by the current text only; an updated document’s old text is forgotten', async () => {
    const { memory, store } = setup();
    await store.put(['docs'], 'a', { text: 'python tutorial' });
    await store.put(['docs'], 'b', { text: 'garden tomatoes' });
    await store.put(['docs'], 'a', { text: 'fresh pasta recipes' });
    await store.put(['docs'], 'c', { text: 'python tutorial' });
    const results = (await store.search(['docs'], { query: 'python tutorial' })) as SearchItem[];
    // Were a's old text still indexed, a would tie with c.
    const score = (key: string) => results.find((r) => r.key === key)?.score ?? Number.NEGATIVE_INFINITY;
    expect(results[0]!.key).toBe('c');
    expect(score('a')).toBeLessThan(score('c'));
    expect(((await store.search(['docs'], { query: 'pasta recipes' })) as SearchItem[])[0]).toMatchObject({
      key: 'a',
      score: expect.any(Number),
    });
    const episodes = await memory.store.episodes.list({ scope: acme });
    expect(episodes.items.map((e) => e.text).sort()).toEqual([
      'text: fresh pasta recipes',
      'text: garden tomatoes',
      'text: python tutorial',
    ]);
  });

  it('delete removes every version and the item’s text from memory', async () => {
    const { memory, store } = setup();
    await store.put(['docs'], 'a', { text: 'python tutorial' });
    await store.put(['docs'], 'a', { text: 'python tutorial, second edition' });
    await store.delete(['docs'], 'a');
    expect(await memory.facts.history(acme, factKey('docs/a'))).toEqual([]);
    expect((await memory.store.episodes.list({ scope: acme })).items).toEqual([]);
    expect((await memory.recall(acme, { query: 'python tutorial' })).render()).toBe('');
    // The update replaced the first text's episode; the delete took the fact with the second text's.
    const indexed = await memory.audit.list(acme, { actions: ['fact.index'] });
    expect(indexed.items.map((e) => [e.details.written, e.details.removed])).toEqual([
      [1, 0],
      [1, 1],
    ]);
    const forgotten = await memory.audit.list(acme, { actions: ['forget.item'] });
    expect(forgotten.items.map((e) => e.details.layer)).toEqual(['facts']);
  });

  it('indexes every item, also one whose text repeats another item or a conversation turn', async () => {
    const { memory, store } = setup();
    await memory.observe({ ...acme, threadId: 't1' }, { role: 'user', content: 'text: python tutorial' });
    await store.put(['docs'], 'a', { text: 'python tutorial' });
    await store.put(['docs'], 'b', { text: 'python tutorial' });
    const results = (await store.search(['docs'], { query: 'python tutorial' })) as SearchItem[];
    expect(results.map((r) => [r.key, typeof r.score]).sort()).toEqual([
      ['a', 'number'],
      ['b', 'number'],
    ]);
    await store.delete(['docs'], 'a');
    const episodes = (await memory.store.episodes.list({ scope: acme })).items;
    expect(episodes.map((e) => e.role).sort()).toEqual(['system', 'user']);
  });

  it('round-trips any key and label exactly (case, spaces, slashes, percent signs, unicode)', async () => {
    const { store } = setup();
    const cases: Array<[string[], string]> = [
      [['Users', 'Ada Lovelace'], 'Prefs/Email'],
      [['users', 'ada lovelace'], 'prefs/email'],
      [['ünïcödé', '東京'], '50% off'],
      [['a-b_c'], '6f1c2b7e-2d4a-4d0e-9a51-0c2f7d9a1b33'],
    ];
    for (const [i, [namespace, key]] of cases.entries()) await store.put(namespace, key, { i });
    for (const [i, [namespace, key]] of cases.entries()) {
      expect(await store.get(namespace, key)).toMatchObject({ namespace, key, value: { i } });
    }
    expect((await store.search([])).map((r) => [r.namespace, r.key]).sort()).toEqual(
      cases.map(([n, k]) => [n, k]).sort(),
    );
    expect(await store.listNamespaces({ prefix: ['Users'] })).toEqual([['Users', 'Ada Lovelace']]);
  });

  it('maps namespace levels to scopes: each user’s items are theirs alone', async () => {
    const memory = newMemory();
    const store = new StrataStore({ memory, scope: namespaceLevels(['orgId', 'userId']) });
    await store.put(['acme', 'ada', 'memories'], 'm1', { text: 'Ada is vegetarian' });
    await store.put(['acme', 'bob', 'memories'], 'm1', { text: 'Bob loves steak' });

    expect((await memory.facts.list({ orgId: 'acme', userId: 'ada' })).map((f) => f.value)).toEqual([
      { text: 'Ada is vegetarian' },
    ]);
    const bobRecall = await memory.recall({ orgId: 'acme', userId: 'bob' }, { query: 'vegetarian' });
    expect(bobRecall.render()).not.toContain('vegetarian');
    expect((await store.search(['acme', 'ada'], { query: 'vegetarian' })).map((r) => r.value)).toEqual([
      { text: 'Ada is vegetarian' },
    ]);
    expect(await store.listNamespaces({ prefix: ['acme', 'bob'] })).toEqual([['acme', 'bob', 'memories']]);

    // A prefix that names the org but not the user reads every user's scope under it.
    expect((await store.search(['acme'])).map((r) => r.namespace).sort()).toEqual([
      ['acme', 'ada', 'memories'],
      ['acme', 'bob', 'memories'],
    ]);
    const ranked = (await store.search(['acme'], { query: 'steak' })) as SearchItem[];
    expect(ranked[0]).toMatchObject({ namespace: ['acme', 'bob', 'memories'], score: expect.any(Number) });
    expect(await store.listNamespaces({ prefix: ['acme'] })).toEqual([
      ['acme', 'ada', 'memories'],
      ['acme', 'bob', 'memories'],
    ]);
    await memory.observe(
      { orgId: 'acme', userId: 'ada', threadId: 't1' },
      { role: 'user', content: 'Hello there.' },
    );
    expect(await store.listNamespaces({ prefix: ['acme'], maxDepth: 2 })).toEqual([
      ['acme', 'ada'],
      ['acme', 'bob'],
    ]);
    // Without a single level the prefix names no tenant.
    expect((await strataRejection(store.listNamespaces())).code).toBe('unsupported');
    expect((await strataRejection(store.put(['acme'], 'k', { v: 1 }))).code).toBe('invalid_input');
  });

  it('validates a whole batch before writing any of it', async () => {
    const { memory, store } = setup();
    const tooBig = { text: 'x'.repeat(20_000) };
    const cases: Array<[unknown, string]> = [
      [tooBig, 'payload_too_large'],
      [['not', 'an', 'object'], 'invalid_input'],
      [{ fn: 1n }, 'invalid_input'],
    ];
    for (const [value, code] of cases) {
      const error = await strataRejection(
        store.batch([
          { namespace: ['docs'], key: 'ok', value: { fine: true } },
          { namespace: ['docs'], key: 'bad', value: value as Record<string, unknown> },
        ]),
      );
      expect(error.code).toBe(code);
    }
    await expect(
      store.batch([{ namespacePrefix: ['docs'], filter: { n: { $regex: 'x' } }, limit: 1, offset: 0 }]),
    ).rejects.toThrow(/unknown operator/);
    await expect(store.batch([{ namespace: ['docs'], key: '', value: { v: 1 } }])).rejects.toThrow(/key/);
    await expect(store.batch([{ namespace: ['a.b'], key: 'k', value: { v: 1 } }])).rejects.toThrow(/period/);
    await expect(store.put(['docs'], 'k'.repeat(600), { v: 1 })).rejects.toThrow(/at most 512/);
    expect(await store.search(['docs'])).toEqual([]);
    expect(await memory.facts.list(acme)).toEqual([]);
  });

  it('with index: false nothing is indexed; filters and listing still work', async () => {
    const { memory, store } = setup({ index: false });
    await store.put(['docs'], 'a', { text: 'python tutorial', lang: 'en' });
    expect((await memory.store.episodes.list({ scope: acme })).items).toEqual([]);
    const [found] = (await store.search(['docs'], {
      query: 'python',
      filter: { lang: 'en' },
    })) as SearchItem[];
    expect(found).toMatchObject({ key: 'a' });
    expect(found!.score).toBeUndefined();
  });

  it('indexes the configured fields', async () => {
    const { memory, store } = setup({ index: { fields: ['title', 'tags[*]'] } });
    await store.put(['docs'], 'a', {
      title: 'Zebra facts',
      tags: ['savanna', 'stripes'],
      body: 'ignored body',
    });
    const texts = (await memory.store.episodes.list({ scope: acme })).items.map((e) => e.text).sort();
    expect(texts).toEqual(['tags[0]: savanna', 'tags[1]: stripes', 'title: Zebra facts']);
    expect(() => setup({ index: { fields: ['{a,b}'] } })).toThrow(/unsupported index field/);
  });

  it('needs a long-term scope', () => {
    const memory = newMemory();
    expect(() => new StrataStore({ memory } as never)).toThrow(/scope/);
    expect(() => new StrataStore({ memory, scope: { userId: 'u', threadId: 't' } })).toThrow(/threadId/);
    expect(() => namespaceLevels(['threadId'])).toThrow(/long-term/);
    expect(() => namespaceLevels(['userId'], { userId: 'x' })).toThrow(/already sets/);
  });

  it('gives createAgent long-term memory: a tool saves through runtime.store, a later thread finds it', async () => {
    const memory = newMemory();
    const store = new StrataStore({ memory, scope: namespaceLevels(['userId']) });
    const contextSchema = z.object({ userId: z.string() });
    type Runtime = { store: BaseStore; context: { userId: string } };
    const save = tool(
      async ({ text }, runtime) => {
        const { store: runStore, context } = runtime as unknown as Runtime;
        await runStore.put([context.userId, 'memories'], 'diet', { text });
        return 'saved';
      },
      { name: 'save_memory', description: 'Save a memory.', schema: z.object({ text: z.string() }) },
    );
    const find = tool(
      async ({ query }, runtime) => {
        const { store: runStore, context } = runtime as unknown as Runtime;
        const found = await runStore.search([context.userId, 'memories'], { query });
        return found.map((item) => item.value.text).join('; ') || 'nothing';
      },
      { name: 'find_memory', description: 'Search memories.', schema: z.object({ query: z.string() }) },
    );
    const agentWith = (calls: Array<{ name: string; args: Record<string, unknown>; id: string }>) =>
      createAgent({
        model: new FakeToolCallingModel({ toolCalls: [calls, []] }),
        tools: [save, find],
        store,
        contextSchema,
      });

    await agentWith([{ name: 'save_memory', args: { text: 'Ada is vegetarian' }, id: 'c1' }]).invoke(
      { messages: [{ role: 'user', content: 'I am vegetarian.' }] },
      { context: { userId: 'ada' }, configurable: { thread_id: 't1' } },
    );
    const later = await agentWith([
      { name: 'find_memory', args: { query: 'vegetarian diet' }, id: 'c2' },
    ]).invoke(
      { messages: [{ role: 'user', content: 'What do I eat?' }] },
      { context: { userId: 'ada' }, configurable: { thread_id: 't2' } },
    );
    expect(later.messages.filter(ToolMessage.isInstance).map((m) => m.text)).toEqual(['Ada is vegetarian']);
    const other = await agentWith([
      { name: 'find_memory', args: { query: 'vegetarian diet' }, id: 'c3' },
    ]).invoke(
      { messages: [{ role: 'user', content: 'What do I eat?' }] },
      { context: { userId: 'bob' }, configurable: { thread_id: 't3' } },
    );
    expect(other.messages.filter(ToolMessage.isInstance).map((m) => m.text)).toEqual(['nothing']);

    // The same memory reaches the model through the middleware, in a new thread.
    const model = fakeModel().respond(new AIMessage('You are vegetarian.'));
    const agent = createAgent({ model, store, middleware: [strataMemoryMiddleware({ memory })] });
    await agent.invoke(
      { messages: [{ role: 'user', content: 'Am I vegetarian?' }] },
      { context: { userId: 'ada' }, configurable: { thread_id: 't4' } },
    );
    const system = model.calls[0]!.messages.find(SystemMessage.isInstance)!.text;
    expect(system).toContain('Ada is vegetarian');
  });

  it('shows what an agent saved once, without JSON, in the block a later thread’s model gets', async () => {
    const memory = newMemory();
    const store = new StrataStore({ memory, scope: namespaceLevels(['userId']) });
    const save = tool(
      async ({ text }, runtime) => {
        const { store: runStore, context } = runtime as unknown as {
          store: BaseStore;
          context: { userId: string };
        };
        await runStore.put([context.userId, 'memories'], 'diet', { text });
        return 'saved';
      },
      { name: 'save_memory', description: 'Save a memory.', schema: z.object({ text: z.string() }) },
    );
    await createAgent({
      model: new FakeToolCallingModel({
        toolCalls: [[{ name: 'save_memory', args: { text: 'Ada is vegetarian' }, id: 'c1' }], []],
      }),
      tools: [save],
      store,
      contextSchema: z.object({ userId: z.string() }),
    }).invoke(
      { messages: [{ role: 'user', content: 'Remember that I am vegetarian.' }] },
      { context: { userId: 'ada' }, configurable: { thread_id: 't1' } },
    );

    const model = fakeModel().respond(new AIMessage('You are vegetarian.'));
    const agent = createAgent({ model, store, middleware: [strataMemoryMiddleware({ memory })] });
    await agent.invoke(
      { messages: [{ role: 'user', content: 'Am I vegetarian?' }] },
      { context: { userId: 'ada' }, configurable: { thread_id: 't2' } },
    );
    const system = model.calls[0]!.messages.find(SystemMessage.isInstance)!.text;
    const block = system.slice(system.indexOf('<memory>'), system.indexOf('</memory>'));
    expect(block.split('\n').filter((line) => line.includes('Ada is vegetarian'))).toEqual([
      expect.stringContaining('memories/diet · value: text: Ada is vegetarian'),
    ]);
    expect(block).not.toMatch(/[{}"]/);
  });

  it('serves graph.compile({ store }): nodes read and write through config.store', async () => {
    const { store } = setup();
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('remember', async (_state, config: LangGraphRunnableConfig) => {
        const previous = await config.store!.get(['visits'], 'count');
        await config.store!.put(['visits'], 'count', { n: ((previous?.value.n as number) ?? 0) + 1 });
        return {};
      })
      .addEdge('__start__', 'remember')
      .compile({ store });
    await graph.invoke({ messages: [] });
    await graph.invoke({ messages: [] });
    expect((await store.get(['visits'], 'count'))?.value).toEqual({ n: 2 });
  });
});
