import { describe, expect, it } from 'vitest';
import { FACT_INDEX_KEY } from '../engine/metadata-keys.ts';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import type { Embedder } from '../ports/ports.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock, testEmbedder } from '../test/index.ts';
import { indexedFactOf } from './fact-index.ts';

const acme = { orgId: 'acme' };
const item = { entityType: 'store item', entity: 'docs/a', key: 'value' };

function setup(embedder: Embedder = testEmbedder()) {
  const store = memoryStore();
  const memory = createMemory({ store, embedder, clock: manualClock() });
  const episodes = async () => (await store.episodes.list({ scope: acme })).items.map((e) => e.text).sort();
  return { store, memory, episodes };
}

describe('facts.remember with an index', () => {
  it('keeps the index texts as episodes of the fact that recall finds and that lead back to it', async () => {
    const { memory, store } = setup();
    const result = await memory.facts.remember(acme, {
      ...item,
      value: { text: 'python tutorial' },
      metadata: { origin: 'langgraph' },
      index: { texts: ['text: python tutorial'], speaker: 'saved memory' },
    });
    expect(result.fact?.metadata).toMatchObject({
      origin: 'langgraph',
      [FACT_INDEX_KEY]: result.indexEpisodeIds,
    });
    expect(result.indexEpisodeIds).toHaveLength(1);
    const [episode] = await store.episodes.get({ scope: acme, ids: result.indexEpisodeIds! });
    expect(episode).toMatchObject({ role: 'system', speaker: 'saved memory', text: 'text: python tutorial' });
    expect(episode!.embedding).toHaveLength(64);
    expect(indexedFactOf(episode!)).toEqual({ entityType: 'store item', entityId: 'docs/a', key: 'value' });

    const context = await memory.recall(acme, { query: 'python tutorial', layers: ['episodes'] });
    expect(context.sections.episodes.map((e) => indexedFactOf(e.episode)?.entityId)).toEqual(['docs/a']);
    expect(context.render()).toContain('saved memory: text: python tutorial');
  });

  it('replaces the set on a new value: kept texts keep their episode, dropped ones are deleted', async () => {
    const { memory, episodes } = setup();
    const first = await memory.facts.remember(acme, {
      ...item,
      value: { title: 'Zebra', body: 'stripes' },
      index: { texts: ['title: Zebra', 'body: stripes'] },
    });
    const second = await memory.facts.remember(acme, {
      ...item,
      value: { title: 'Zebra', body: 'savanna' },
      index: { texts: ['title: Zebra', 'body: savanna'] },
    });
    expect(second.fact?.version).toBe(2);
    expect(second.indexEpisodeIds![0]).toBe(first.indexEpisodeIds![0]);
    expect(await episodes()).toEqual(['body: savanna', 'title: Zebra']);
    const [action] = (await memory.audit.list(acme, { actions: ['fact.index'] })).items.slice(-1);
    expect(action?.details).toEqual({ episodes: 2, written: 1, removed: 1 });
  });

  it('keeps the index when a write gives none, and removes it with texts: []', async () => {
    const { memory, episodes } = setup();
    await memory.facts.remember(acme, { ...item, value: 'v1', index: { texts: ['one'] } });
    const corrected = await memory.facts.correct(acme, { ...item, value: 'v2' });
    expect(corrected.fact.metadata[FACT_INDEX_KEY]).toHaveLength(1);
    expect(await episodes()).toEqual(['one']);
    await memory.facts.remember(acme, { ...item, value: 'v3', index: { texts: [] } });
    expect(await episodes()).toEqual([]);
  });

  it('changes the index of a confirmed value without a new version', async () => {
    const { memory, episodes } = setup();
    await memory.facts.remember(acme, { ...item, value: { n: 1 }, index: { texts: ['n: 1'] } });
    const again = await memory.facts.remember(acme, {
      ...item,
      value: { n: 1 },
      metadata: { tag: 'x' },
      index: { texts: ['number one'] },
    });
    expect(again).toMatchObject({ confirmed: true, fact: { version: 1, metadata: { tag: 'x' } } });
    expect(await episodes()).toEqual(['number one']);
  });

  it('forgetItem of the fact deletes its index episodes, not the conversation ones', async () => {
    const { memory, store, episodes } = setup();
    await memory.observe({ ...acme, threadId: 't1' }, { role: 'user', content: 'text: python tutorial' });
    const { fact } = await memory.facts.remember(acme, {
      ...item,
      value: { text: 'python tutorial' },
      index: { texts: ['text: python tutorial'] },
    });
    await memory.facts.remember(acme, {
      ...item,
      value: { text: 'python tutorial 2' },
      index: { texts: ['text: python tutorial 2'] },
    });
    // The conversation episode and the current index text (the first one went with its version).
    expect(await episodes()).toEqual(['text: python tutorial', 'text: python tutorial 2']);
    expect(await memory.forgetItem(acme, fact!.id)).toEqual({ deleted: true, layer: 'facts' });
    const left = (await store.episodes.list({ scope: acme })).items;
    expect(left.map((e) => [e.role, e.text])).toEqual([['user', 'text: python tutorial']]);
    expect(await memory.facts.history(acme, item)).toEqual([]);
  });

  it('gives two facts with the same text an episode each', async () => {
    const { memory, episodes } = setup();
    await memory.facts.remember(acme, { ...item, value: { done: true }, index: { texts: ['done: true'] } });
    await memory.facts.remember(acme, {
      ...item,
      entity: 'docs/b',
      value: { done: true },
      index: { texts: ['done: true'] },
    });
    expect(await episodes()).toEqual(['done: true', 'done: true']);
  });

  it('stores the index without vectors when the embedder fails, and audits it', async () => {
    const failing: Embedder = {
      ...testEmbedder(),
      embed: async () => {
        throw new Error('embedding service down');
      },
    };
    const { memory, store } = setup(failing);
    const { indexEpisodeIds } = await memory.facts.remember(acme, {
      ...item,
      value: 'v',
      index: { texts: ['some text'] },
    });
    const [episode] = await store.episodes.get({ scope: acme, ids: indexEpisodeIds! });
    expect(episode?.embedding).toBeUndefined();
    const failed = await memory.audit.list(acme, { actions: ['embed.failed'] });
    expect(failed.items[0]?.details).toMatchObject({ episodes: 1 });
    expect(String(failed.items[0]?.details.error)).toContain('embedding service down');
  });

  it('embeds only texts without an episode, as documents', async () => {
    const purposes: Array<string | undefined> = [];
    const texts: string[][] = [];
    const base = testEmbedder();
    const recording: Embedder = {
      ...base,
      embed: async (args) => {
        purposes.push(args.purpose);
        texts.push(args.texts);
        return base.embed(args);
      },
    };
    const { memory } = setup(recording);
    await memory.facts.remember(acme, { ...item, value: 1, index: { texts: ['alpha', 'beta'] } });
    await memory.facts.remember(acme, { ...item, value: 2, index: { texts: ['alpha', 'gamma'] } });
    expect(texts).toEqual([['alpha', 'beta'], ['gamma']]);
    expect(purposes).toEqual(['document', 'document']);
  });

  it('refuses the engine’s own metadata keys and blank index texts, storing nothing', async () => {
    const { memory, episodes } = setup();
    for (const input of [
      { ...item, value: 1, metadata: { correction: true } },
      { ...item, value: 1, metadata: { [FACT_INDEX_KEY]: ['ep_x'] } },
      { ...item, value: 1, index: { texts: ['  '] } },
      { ...item, value: 1, index: { texts: ['x'], extra: true } },
    ]) {
      await expect(memory.facts.remember(acme, input as never)).rejects.toSatisfy((e) =>
        StrataError.hasCode(e, 'invalid_input'),
      );
    }
    expect(await memory.facts.list(acme)).toEqual([]);
    expect(await episodes()).toEqual([]);
  });
});
