/**
 * Behaviour every LangGraph `BaseStore` must show, run against LangGraph's own `InMemoryStore`
 * (the reference), `StrataStore`, and `StrataStore` behind LangGraph's `AsyncBatchedStore` (how
 * graphs see a store). A store that passes behaves like LangGraph's stores for the code that uses it.
 */
import type { BaseStore, Item } from '@langchain/langgraph';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

export interface StoreUnderTest {
  store: BaseStore;
  /** Moves the store's clock forward (so `updatedAt` can move). */
  tick(): Promise<void>;
  teardown?(): Promise<void>;
}

export interface StoreCapabilities {
  /** `listNamespaces` works (`AsyncBatchedStore` has none). */
  listNamespaces: boolean;
  /** `put`'s `index` argument reaches the store (`AsyncBatchedStore` drops it). */
  putIndex: boolean;
  /** `batch` can be called directly (`AsyncBatchedStore` only batches its own queue). */
  batch: boolean;
}

type SearchResult = Item & { score?: number };

const keysOf = (items: Item[]) => items.map((i) => i.key).sort();

export function describeBaseStoreBehaviour(
  name: string,
  create: () => Promise<StoreUnderTest>,
  can: StoreCapabilities,
): void {
  describe(`BaseStore behaviour: ${name}`, () => {
    let subject: StoreUnderTest;
    let store: BaseStore;

    beforeEach(async () => {
      subject = await create();
      store = subject.store;
    });
    afterEach(async () => {
      await subject.teardown?.();
    });

    it('put then get returns the document, its namespace, key and timestamps', async () => {
      const value = {
        text: 'likes pizza',
        tags: ['food', 'italian'],
        nested: { n: 1, ok: true, none: null },
      };
      await store.put(['users', 'u1', 'memories'], 'pizza', value);
      const item = await store.get(['users', 'u1', 'memories'], 'pizza');
      expect(item).toMatchObject({ namespace: ['users', 'u1', 'memories'], key: 'pizza', value });
      expect(item!.createdAt).toBeInstanceOf(Date);
      expect(item!.updatedAt).toBeInstanceOf(Date);
      expect(item!.updatedAt.getTime()).toBe(item!.createdAt.getTime());
    });

    it('get of a missing key or namespace is null; keys and labels are case-sensitive', async () => {
      await store.put(['docs'], 'Report', { v: 'upper' });
      await store.put(['docs'], 'report', { v: 'lower' });
      await store.put(['Docs'], 'report', { v: 'other namespace' });
      expect((await store.get(['docs'], 'Report'))?.value).toEqual({ v: 'upper' });
      expect((await store.get(['docs'], 'report'))?.value).toEqual({ v: 'lower' });
      expect((await store.get(['Docs'], 'report'))?.value).toEqual({ v: 'other namespace' });
      expect(await store.get(['docs'], 'missing')).toBeNull();
      expect(await store.get(['nowhere'], 'report')).toBeNull();
    });

    it('a second put replaces the document, keeps createdAt and moves updatedAt', async () => {
      await store.put(['docs'], 'a', { v: 1, old: true });
      // InMemoryStore hands out its live objects: keep the numbers, not the item.
      const first = (await store.get(['docs'], 'a'))!;
      const created = first.createdAt.getTime();
      const updated = first.updatedAt.getTime();
      await subject.tick();
      await store.put(['docs'], 'a', { v: 2 });
      const second = (await store.get(['docs'], 'a'))!;
      expect(second.value).toEqual({ v: 2 });
      expect(second.createdAt.getTime()).toBe(created);
      expect(second.updatedAt.getTime()).toBeGreaterThan(updated);
    });

    it('delete removes the item, a missing one is a no-op, and a new put starts afresh', async () => {
      await store.put(['docs'], 'a', { v: 1 });
      await store.put(['docs'], 'b', { v: 2 });
      const before = (await store.get(['docs'], 'a'))!;
      await store.delete(['docs'], 'a');
      await store.delete(['docs'], 'never-there');
      expect(await store.get(['docs'], 'a')).toBeNull();
      expect(keysOf(await store.search(['docs']))).toEqual(['b']);
      await subject.tick();
      await store.put(['docs'], 'a', { v: 3 });
      const again = (await store.get(['docs'], 'a'))!;
      expect(again.value).toEqual({ v: 3 });
      expect(again.createdAt.getTime()).toBeGreaterThan(before.createdAt.getTime());
    });

    it('search returns the items under a prefix of whole labels; [] is everything', async () => {
      await store.put(['docs', 'a'], '1', { n: 1 });
      await store.put(['docs', 'a', 'deep'], '2', { n: 2 });
      await store.put(['docs', 'b'], '3', { n: 3 });
      await store.put(['docsx'], '4', { n: 4 });
      await store.put(['other'], '5', { n: 5 });
      expect(keysOf(await store.search(['docs']))).toEqual(['1', '2', '3']);
      expect(keysOf(await store.search(['docs', 'a']))).toEqual(['1', '2']);
      expect(keysOf(await store.search(['doc']))).toEqual([]);
      expect(keysOf(await store.search([]))).toEqual(['1', '2', '3', '4', '5']);
      const [item] = await store.search(['docs', 'b']);
      expect(item).toMatchObject({ namespace: ['docs', 'b'], key: '3', value: { n: 3 } });
      expect((item as SearchResult).score).toBeUndefined();
    });

    it('search filters by equality and $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin; all must hold', async () => {
      const rows = [
        { key: 'a', value: { color: 'red', score: 4.5, active: true } },
        { key: 'b', value: { color: 'blue', score: 3, active: false } },
        { key: 'c', value: { color: 'red', score: 5, active: false } },
        { key: 'd', value: { color: 'green', active: true } },
      ];
      for (const row of rows) await store.put(['items'], row.key, row.value);
      const keys = async (filter: Record<string, unknown>) =>
        keysOf(await store.search(['items'], { filter }));
      expect(await keys({ color: 'red' })).toEqual(['a', 'c']);
      expect(await keys({ color: { $eq: 'blue' } })).toEqual(['b']);
      expect(await keys({ color: { $ne: 'red' } })).toEqual(['b', 'd']);
      expect(await keys({ score: { $gt: 4.5 } })).toEqual(['c']);
      expect(await keys({ score: { $gte: 4.5 } })).toEqual(['a', 'c']);
      expect(await keys({ score: { $lt: 4.5 } })).toEqual(['b']);
      expect(await keys({ score: { $lte: 4.5 } })).toEqual(['a', 'b']);
      expect(await keys({ score: { $gte: 3, $lt: 5 } })).toEqual(['a', 'b']);
      expect(await keys({ color: { $in: ['blue', 'green'] } })).toEqual(['b', 'd']);
      expect(await keys({ color: { $nin: ['blue', 'green'] } })).toEqual(['a', 'c']);
      expect(await keys({ color: 'red', active: false })).toEqual(['c']);
      expect(await keys({ active: true, score: { $gt: 1 } })).toEqual(['a']);
      expect(await keys({ missing: 'x' })).toEqual([]);
    });

    it('limit and offset page through a search without repeats', async () => {
      for (let i = 0; i < 7; i++) await store.put(['paged'], `k${i}`, { i });
      expect(await store.search(['paged'])).toHaveLength(7);
      expect(await store.search(['paged'], { limit: 3 })).toHaveLength(3);
      const pages = [];
      for (let offset = 0; offset < 7; offset += 3)
        pages.push(...(await store.search(['paged'], { limit: 3, offset })));
      expect(keysOf(pages)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6']);
      expect(await store.search(['paged'], { offset: 7 })).toEqual([]);
      expect(await store.search(['paged'], { limit: 0 })).toEqual([]);
    });

    it('rejects invalid namespaces and stores nothing', async () => {
      const bad: unknown[][] = [[], ['a.b'], ['a:b'], [''], ['langgraph', 'x'], ['ok', 7]];
      for (const namespace of bad) {
        await expect(store.put(namespace as string[], 'k', { v: 1 })).rejects.toThrow();
      }
      await expect(store.get(['a.b'], 'k')).rejects.toThrow();
      await expect(store.search(['a:b'])).rejects.toThrow();
      expect(await store.search([])).toEqual([]);
    });

    it('a query ranks the matching documents first, with scores best first', async () => {
      await store.put(['docs'], 'py', { text: 'A Python tutorial for beginners' });
      await store.put(['docs'], 'ts', { text: 'A TypeScript guide for web developers' });
      await store.put(['docs'], 'pasta', { text: 'Fresh pasta recipes from Bologna' });
      await store.put(['docs'], 'garden', { text: 'Growing tomatoes on a balcony' });
      const results = (await store.search(['docs'], { query: 'python tutorial' })) as SearchResult[];
      expect(results[0]!.key).toBe('py');
      expect(keysOf(results)).toEqual(['garden', 'pasta', 'py', 'ts']);
      const scores = results.map((r) => r.score).filter((s): s is number => s !== undefined);
      expect(scores.length).toBeGreaterThan(0);
      expect(typeof results[0]!.score).toBe('number');
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      const second = (await store.search(['docs'], {
        query: 'python tutorial',
        offset: 1,
        limit: 2,
      })) as SearchResult[];
      expect(second.map((r) => r.key)).toEqual(results.slice(1, 3).map((r) => r.key));
      const filtered = (
        await store.search(['docs'], { query: 'python tutorial', filter: { text: { $ne: 'x' } } })
      )[0];
      expect(filtered?.key).toBe('py');
    });

    if (can.putIndex) {
      it('put’s index argument chooses the fields a query ranks by; false indexes nothing', async () => {
        await store.put(['docs'], 'a', { title: 'zebra migration', body: 'python snakes' }, ['title']);
        await store.put(['docs'], 'b', { title: 'python snakes', body: 'zebra migration' }, ['title']);
        await store.put(['docs'], 'c', { title: 'python snakes handbook' }, false);
        const results = (await store.search(['docs'], { query: 'python snakes' })) as SearchResult[];
        expect(results[0]!.key).toBe('b');
        expect(results.find((r) => r.key === 'c')!.score).toBeUndefined();
        expect(keysOf(results)).toEqual(['a', 'b', 'c']);
      });
    }

    if (can.listNamespaces) {
      it('listNamespaces with prefix, suffix, wildcards, maxDepth, limit and offset', async () => {
        await store.put(['a', 'b', 'c'], 'k', { v: 1 });
        await store.put(['a', 'b', 'd'], 'k', { v: 1 });
        await store.put(['a', 'e'], 'k', { v: 1 });
        await store.put(['x', 'b', 'c'], 'k', { v: 1 });
        expect(await store.listNamespaces()).toEqual([
          ['a', 'b', 'c'],
          ['a', 'b', 'd'],
          ['a', 'e'],
          ['x', 'b', 'c'],
        ]);
        expect(await store.listNamespaces({ prefix: ['a'] })).toEqual([
          ['a', 'b', 'c'],
          ['a', 'b', 'd'],
          ['a', 'e'],
        ]);
        expect(await store.listNamespaces({ suffix: ['c'] })).toEqual([
          ['a', 'b', 'c'],
          ['x', 'b', 'c'],
        ]);
        expect(await store.listNamespaces({ prefix: ['a', '*', 'd'] })).toEqual([['a', 'b', 'd']]);
        expect(await store.listNamespaces({ prefix: ['a'], suffix: ['c'] })).toEqual([['a', 'b', 'c']]);
        expect(await store.listNamespaces({ maxDepth: 2 })).toEqual([
          ['a', 'b'],
          ['a', 'e'],
          ['x', 'b'],
        ]);
        expect(await store.listNamespaces({ limit: 2, offset: 1 })).toEqual([
          ['a', 'b', 'd'],
          ['a', 'e'],
        ]);
      });
    }

    if (can.batch) {
      it('a batch reads the state before its writes, and the last write to a key wins', async () => {
        await store.put(['docs'], 'a', { v: 0 });
        const results = await store.batch([
          { namespace: ['docs'], key: 'new', value: { v: 1 } },
          { namespace: ['docs'], key: 'new' },
          { namespace: ['docs'], key: 'a', value: { v: 1 } },
          { namespace: ['docs'], key: 'b', value: { v: 1 } },
          { namespace: ['docs'], key: 'a', value: { v: 2 } },
          { namespacePrefix: ['docs'], limit: 10, offset: 0 },
          { namespace: ['docs'], key: 'b', value: null },
        ]);
        expect(results[0]).toBeNull();
        expect(results[1]).toBeNull();
        expect(keysOf(results[5] as unknown as Item[])).toEqual(['a']);
        expect((await store.get(['docs'], 'new'))?.value).toEqual({ v: 1 });
        expect((await store.get(['docs'], 'a'))?.value).toEqual({ v: 2 });
        expect(await store.get(['docs'], 'b')).toBeNull();
      });
    }
  });
}
