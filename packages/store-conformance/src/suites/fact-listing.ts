import type { FactRecord, JsonValue, Scope } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { allPages, expectCode, MINUTE, newTenant, provenance, T0, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';

/**
 * `facts.find`'s selection, filters, order and paging, which adapters translate their own listings
 * to (a LangGraph store's prefix search, filters and offsets): the driver does the work in its query.
 */
export function factListingSuite(options: StoreConformanceOptions): void {
  describe('facts: filtered, ordered and paged listing', () => {
    const store = useStore(options);

    const item = (scope: Scope, entityId: string, value: JsonValue, confirmedMinutes = 0, extra = {}) =>
      store().facts.insert({
        fact: {
          scope,
          entityType: 'store item',
          entityId,
          key: 'value',
          value,
          validFrom: T0,
          lastConfirmedAt: T0 + confirmedMinutes * MINUTE,
          createdAt: T0,
          provenance,
          ...extra,
        },
      });
    const ids = (facts: FactRecord[]) => facts.map((f) => f.entityId);

    it('within: visible reads ancestors, exact the scope alone, subtree the scope and its descendants', async () => {
      const t = newTenant();
      await item(t.org, 'org item', 1);
      await item(t.alice, 'alice item', 2);
      await item(t.aliceThread, 'thread item', 3);
      await item(t.bob, 'bob item', 4);
      await item(t.otherOrgAlice, 'other tenant', 5);
      const read = async (scope: Scope, within?: 'visible' | 'exact' | 'subtree') =>
        ids(
          (await store().facts.find({ scope, entityType: 'store item', ...(within ? { within } : {}) }))
            .items,
        ).sort();
      expect(await read(t.alice)).toEqual(['alice item', 'org item']);
      expect(await read(t.alice, 'exact')).toEqual(['alice item']);
      expect(await read(t.alice, 'subtree')).toEqual(['alice item', 'thread item']);
      expect(await read(t.org, 'subtree')).toEqual(['alice item', 'bob item', 'org item', 'thread item']);
    });

    it('order confirmed: last confirmed first, then entity id; cursor and offset page it alike', async () => {
      const t = newTenant();
      const minutes = [3, 1, 3, 2, 3, 0, 2];
      for (const [i, m] of minutes.entries()) await item(t.alice, `docs/k${6 - i}`, { i }, m);
      const expected = [...minutes.entries()]
        .map(([i, m]) => ({ id: `docs/k${6 - i}`, m }))
        .sort((a, b) => b.m - a.m || (a.id < b.id ? -1 : 1))
        .map((e) => e.id);
      const args = { scope: t.alice, within: 'exact' as const, order: 'confirmed' as const };
      const paged = await allPages((cursor) =>
        store().facts.find({ ...args, limit: 3, ...(cursor ? { cursor } : {}) }),
      );
      expect(ids(paged.items)).toEqual(expected);
      expect(paged.pages).toBe(3);
      const byOffset: FactRecord[] = [];
      for (let offset = 0; offset < 7; offset += 2) {
        byOffset.push(...(await store().facts.find({ ...args, limit: 2, offset })).items);
      }
      expect(ids(byOffset)).toEqual(expected);
      const tail = await store().facts.find({ ...args, limit: 2, offset: 6 });
      expect([ids(tail.items), tail.nextCursor]).toEqual([expected.slice(6), undefined]);
      // An offset page's cursor goes on after it.
      const first = await store().facts.find({ ...args, limit: 2, offset: 1 });
      const next = await store().facts.find({ ...args, limit: 2, cursor: first.nextCursor! });
      expect(ids([...first.items, ...next.items])).toEqual(expected.slice(1, 5));
    });

    it('entityIdPrefix matches the start byte for byte (no wildcards); entityIds and excludeIds select', async () => {
      const t = newTenant();
      const a = await item(t.alice, 'docs/a', 1);
      await item(t.alice, 'docs/b/deep', 2);
      await item(t.alice, 'docsx/c', 3);
      await item(t.alice, 'd%cs/e', 4);
      await item(t.alice, 'd_cs/f', 5);
      const find = async (extra: Record<string, unknown>) =>
        ids((await store().facts.find({ scope: t.alice, within: 'exact', ...extra })).items).sort();
      expect(await find({ entityIdPrefix: 'docs/' })).toEqual(['docs/a', 'docs/b/deep']);
      expect(await find({ entityIdPrefix: 'd%' })).toEqual(['d%cs/e']);
      expect(await find({ entityIdPrefix: 'd_' })).toEqual(['d_cs/f']);
      expect(await find({ entityIdPrefix: 'D' })).toEqual([]);
      expect(await find({ entityIds: ['docs/a', 'docsx/c', 'nothing'] })).toEqual(['docs/a', 'docsx/c']);
      expect(await find({ entityIdPrefix: 'docs', excludeIds: [a.id] })).toEqual(['docs/b/deep', 'docsx/c']);
    });

    it('where compares top-level fields by JSON type and value, deeply, every condition holding', async () => {
      const t = newTenant();
      const values: Record<string, JsonValue> = {
        a: { color: 'red', score: 4.5, active: true, tags: ['x', 'y'], dims: { w: 1, h: 2 } },
        b: { color: 'blue', score: 3, active: false, tags: ['y'] },
        c: { color: 'red', score: '5', active: 1, dims: { h: 2, w: 1 } },
        d: { color: 'green', score: null },
        e: 'not an object',
        f: ['color', 'red'],
      };
      for (const [name, value] of Object.entries(values)) await item(t.alice, name, value);
      const where = async (filter: Record<string, JsonValue>) =>
        ids((await store().facts.find({ scope: t.alice, within: 'exact', where: filter })).items).sort();
      expect(await where({ color: 'red' })).toEqual(['a', 'c']);
      expect(await where({ color: { $eq: 'blue' } })).toEqual(['b']);
      expect(await where({ active: true })).toEqual(['a']);
      expect(await where({ active: 1 })).toEqual(['c']);
      expect(await where({ score: 5 })).toEqual([]);
      expect(await where({ score: '5' })).toEqual(['c']);
      expect(await where({ score: null })).toEqual(['d']);
      expect(await where({ dims: { w: 1, h: 2 } })).toEqual(['a', 'c']);
      expect(await where({ tags: ['y'] })).toEqual(['b']);
      expect(await where({ tags: ['y', 'x'] })).toEqual([]);
      expect(await where({ color: { $ne: 'red' } })).toEqual(['b', 'd', 'e', 'f']);
      expect(await where({ score: { $gt: 3 } })).toEqual(['a']);
      expect(await where({ score: { $gte: 3 } })).toEqual(['a', 'b']);
      expect(await where({ score: { $lt: 4.5 } })).toEqual(['b']);
      expect(await where({ score: { $lte: 4.5, $gt: 3 } })).toEqual(['a']);
      expect(await where({ color: { $in: ['blue', 'green'] } })).toEqual(['b', 'd']);
      expect(await where({ color: { $nin: ['blue', 'green'] } })).toEqual(['a', 'c', 'e', 'f']);
      expect(await where({ color: { $in: [] } })).toEqual([]);
      expect(await where({ dims: { $in: [{ h: 2, w: 1 }] } })).toEqual(['a', 'c']);
      expect(await where({ color: 'red', active: true })).toEqual(['a']);
      expect(await where({ missing: 'x' })).toEqual([]);
      expect(await where({ 'it\'s "odd".$[0]': { $ne: 1 } })).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    });

    it('filters and pages together: offset counts matching facts only', async () => {
      const t = newTenant();
      for (let i = 0; i < 12; i++) await item(t.alice, `k${String(i).padStart(2, '0')}`, { n: i }, i);
      const page = await store().facts.find({
        scope: t.alice,
        within: 'exact',
        order: 'confirmed',
        where: { n: { $lt: 9 } },
        offset: 2,
        limit: 3,
      });
      expect(ids(page.items)).toEqual(['k06', 'k05', 'k04']);
    });

    it('entityPrefixes lists the distinct ids cut at their last separator, in byte order, paged, per scope', async () => {
      const t = newTenant();
      for (const id of [
        'users/ada/prefs',
        'users/ada/diet',
        'users/bob/prefs',
        'users/%41da/x',
        'notes/a',
        'plain',
        'x//y',
        'z/',
      ]) {
        await item(t.alice, id, 1);
      }
      await item(t.aliceThread, 'threads/t1/a', 1);
      await item(t.bob, 'users/zed/prefs', 1);
      await item(t.otherOrgAlice, 'users/other/prefs', 1);
      const superseded = await item(t.alice, 'old/gone/k', 1);
      await store().facts.supersede({ scope: t.alice, id: superseded.id, next: { value: 2, provenance } });
      await store().facts.insert({
        fact: {
          scope: t.alice,
          entityType: 'other',
          entityId: 'other/x',
          key: 'value',
          value: 1,
          provenance,
        },
      });
      const prefixes = async (extra: Record<string, unknown> = {}) =>
        (
          await store().facts.entityPrefixes({
            scope: t.alice,
            separator: '/',
            entityType: 'store item',
            ...extra,
          })
        ).items;
      const alice = ['notes', 'old/gone', 'users/%41da', 'users/ada', 'users/bob', 'x/', 'z'];
      expect(await prefixes()).toEqual(alice);
      expect(await prefixes({ entityType: undefined })).toEqual([
        'notes',
        'old/gone',
        'other',
        'users/%41da',
        'users/ada',
        'users/bob',
        'x/',
        'z',
      ]);
      expect(await prefixes({ status: ['superseded'] })).toEqual(['old/gone']);
      expect(await prefixes({ within: 'subtree' })).toEqual([
        ...alice.slice(0, 2),
        'threads/t1',
        ...alice.slice(2),
      ]);
      expect(await prefixes({ key: 'other key' })).toEqual([]);
      const paged = await allPages((cursor) =>
        store().facts.entityPrefixes({
          scope: t.alice,
          separator: '/',
          entityType: 'store item',
          limit: 3,
          ...(cursor ? { cursor } : {}),
        }),
      );
      expect([paged.items, paged.pages]).toEqual([alice, 3]);
      await expectCode(store().facts.entityPrefixes({ scope: t.alice, separator: '' }), 'invalid_input');
      await expectCode(
        store().facts.entityPrefixes({ scope: t.alice, separator: '/', cursor: 'x' }),
        'invalid_input',
      );
    });

    it('refuses unknown operators, non-numeric comparisons, and a cursor with an offset', async () => {
      const t = newTenant();
      await item(t.alice, 'a', { n: 1 });
      const error = await expectCode(
        store().facts.find({ scope: t.alice, where: { n: { $regex: 'x' } } as never }),
        'invalid_input',
      );
      expect(error.message).toMatch(/unknown operator \$regex/);
      await expectCode(
        store().facts.find({ scope: t.alice, where: { n: { $gt: '1' } } as never }),
        'invalid_input',
      );
      await expectCode(
        store().facts.find({ scope: t.alice, where: { n: { $in: 1 } } as never }),
        'invalid_input',
      );
      const first = await store().facts.find({ scope: t.alice, limit: 1 });
      await expectCode(
        store().facts.find({ scope: t.alice, offset: 1, cursor: first.nextCursor ?? 'x' }),
        'invalid_input',
      );
      const created = await store().facts.find({ scope: t.alice, limit: 1 });
      await item(t.alice, 'b', { n: 2 });
      const again = await store().facts.find({ scope: t.alice, limit: 1 });
      await expectCode(
        store().facts.find({ scope: t.alice, order: 'confirmed', cursor: again.nextCursor! }),
        'invalid_input',
      );
      expect(created.items).toHaveLength(1);
    });
  });
}
