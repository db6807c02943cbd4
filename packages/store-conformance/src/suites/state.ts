import { describe, expect, it } from 'vitest';
import { allPages, expectCode, newTenant, T0, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';

export function stateSuite(options: StoreConformanceOptions): void {
  describe('state', () => {
    const store = useStore(options);

    it('sets and gets a value at exactly one scope, counting versions', async () => {
      const t = newTenant();
      expect(await store().state.get({ scope: t.alice, key: 'cursor' })).toBeNull();
      const first = await store().state.set({ scope: t.alice, key: 'cursor', value: { page: 1 }, at: T0 });
      expect(first).toEqual({ scope: t.alice, key: 'cursor', value: { page: 1 }, version: 1, updatedAt: T0 });
      const second = await store().state.set({
        scope: t.alice,
        key: 'cursor',
        value: { page: 2 },
        at: T0 + 1,
      });
      expect(second.version).toBe(2);
      expect(await store().state.get({ scope: t.alice, key: 'cursor' })).toEqual(second);
      // State is per job: neither ancestors, descendants nor siblings share it.
      expect(await store().state.get({ scope: t.aliceThread, key: 'cursor' })).toBeNull();
      expect(await store().state.get({ scope: t.org, key: 'cursor' })).toBeNull();
      expect(await store().state.get({ scope: t.bob, key: 'cursor' })).toBeNull();
    });

    it('checks expectedVersion on set (0 means must not exist) and changes nothing on conflict', async () => {
      const t = newTenant();
      await store().state.set({ scope: t.alice, key: 'k', value: 'a', expectedVersion: 0 });
      await expectCode(
        store().state.set({ scope: t.alice, key: 'k', value: 'b', expectedVersion: 0 }),
        'conflict',
      );
      await expectCode(
        store().state.set({ scope: t.alice, key: 'k', value: 'b', expectedVersion: 2 }),
        'conflict',
      );
      const ok = await store().state.set({ scope: t.alice, key: 'k', value: 'c', expectedVersion: 1 });
      expect(ok).toMatchObject({ value: 'c', version: 2 });
      await expectCode(
        store().state.set({ scope: t.alice, key: 'new', value: 1, expectedVersion: 1 }),
        'conflict',
      );
      expect(await store().state.get({ scope: t.alice, key: 'new' })).toBeNull();
    });

    it('lets exactly one of several concurrent writers with the same expectedVersion win', async () => {
      const t = newTenant();
      await store().state.set({ scope: t.alice, key: 'lock', value: 'start' });
      const attempts = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          store().state.set({ scope: t.alice, key: 'lock', value: `writer ${i}`, expectedVersion: 1 }),
        ),
      );
      expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
      for (const failed of attempts.filter((a) => a.status === 'rejected')) {
        expect((failed as PromiseRejectedResult).reason.code).toBe('conflict');
      }
      expect((await store().state.get({ scope: t.alice, key: 'lock' }))!.version).toBe(2);
    });

    it('deletes with an optional expectedVersion', async () => {
      const t = newTenant();
      await store().state.set({ scope: t.alice, key: 'k', value: 1 });
      await expectCode(store().state.delete({ scope: t.alice, key: 'k', expectedVersion: 2 }), 'conflict');
      expect(await store().state.get({ scope: t.alice, key: 'k' })).not.toBeNull();
      expect(await store().state.delete({ scope: t.alice, key: 'k', expectedVersion: 1 })).toEqual({
        deleted: true,
      });
      expect(await store().state.delete({ scope: t.alice, key: 'k' })).toEqual({ deleted: false });
      expect(await store().state.get({ scope: t.alice, key: 'k' })).toBeNull();
    });

    it('lists the entries of exactly one scope by key, with a prefix, page by page', async () => {
      const t = newTenant();
      for (const key of ['job:b', 'job:a', 'other', 'job:c', 'job:d']) {
        await store().state.set({ scope: t.alice, key, value: key });
      }
      await store().state.set({ scope: t.aliceThread, key: 'job:z', value: 'thread' });
      const jobs = await allPages((cursor) =>
        store().state.list({ scope: t.alice, prefix: 'job:', limit: 3, cursor }),
      );
      expect(jobs.items.map((e) => e.key)).toEqual(['job:a', 'job:b', 'job:c', 'job:d']);
      expect(jobs.pages).toBe(2);
      expect((await store().state.list({ scope: t.alice })).items).toHaveLength(5);
      expect((await store().state.list({ scope: t.bob })).items).toEqual([]);
    });
  });
}
