import { describe, expect, it } from 'vitest';
import { expectCode, MINUTE, newTenant, T0, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';

export function ledgerSuite(options: StoreConformanceOptions): void {
  describe('ledger', () => {
    const store = useStore(options);

    it('claims a new key with a lease; another owner then gets the holder back', async () => {
      const t = newTenant();
      const first = await store().ledger.claim({
        scope: t.alice,
        key: 'msg_abc123',
        owner: 'worker-1',
        at: T0,
        leaseMs: MINUTE,
      });
      expect(first).toEqual({
        claimed: true,
        entry: {
          scope: t.alice,
          key: 'msg_abc123',
          status: 'claimed',
          owner: 'worker-1',
          claimedAt: T0,
          leaseUntil: T0 + MINUTE,
        },
      });
      const second = await store().ledger.claim({
        scope: t.alice,
        key: 'msg_abc123',
        owner: 'worker-2',
        at: T0 + 1,
      });
      expect(second).toEqual({ claimed: false, entry: first.entry });
      // The same key in another scope is another key.
      const elsewhere = await store().ledger.claim({
        scope: t.bob,
        key: 'msg_abc123',
        owner: 'worker-2',
        at: T0,
      });
      expect(elsewhere.claimed).toBe(true);
    });

    it('lets exactly one of many concurrent claims win', async () => {
      const t = newTenant();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store().ledger.claim({ scope: t.alice, key: 'job-1', owner: `worker-${i}`, at: T0 }),
        ),
      );
      const winners = results.filter((r) => r.claimed);
      expect(winners).toHaveLength(1);
      const owner = winners[0]!.entry.owner;
      for (const r of results) expect(r.entry.owner).toBe(owner);
      expect((await store().ledger.get({ scope: t.alice, key: 'job-1' }))!.owner).toBe(owner);
    });

    it('lets another owner take over a claim whose lease has expired', async () => {
      const t = newTenant();
      await store().ledger.claim({ scope: t.alice, key: 'job', owner: 'dead', at: T0, leaseMs: MINUTE });
      const early = await store().ledger.claim({
        scope: t.alice,
        key: 'job',
        owner: 'next',
        at: T0 + MINUTE - 1,
      });
      expect(early.claimed).toBe(false);
      const takeover = await store().ledger.claim({
        scope: t.alice,
        key: 'job',
        owner: 'next',
        at: T0 + 2 * MINUTE,
        leaseMs: MINUTE,
      });
      expect(takeover).toMatchObject({
        claimed: true,
        entry: { owner: 'next', status: 'claimed', claimedAt: T0 + 2 * MINUTE, leaseUntil: T0 + 3 * MINUTE },
      });
      await expectCode(store().ledger.complete({ scope: t.alice, key: 'job', owner: 'dead' }), 'conflict');
    });

    it('completes a key once for its owner and never claims a done key again', async () => {
      const t = newTenant();
      await store().ledger.claim({ scope: t.alice, key: 'job', owner: 'w1', at: T0, leaseMs: MINUTE });
      await expectCode(store().ledger.complete({ scope: t.alice, key: 'job', owner: 'w2' }), 'conflict');
      const done = await store().ledger.complete({
        scope: t.alice,
        key: 'job',
        owner: 'w1',
        at: T0 + 10,
        result: { archived: 3 },
      });
      expect(done).toMatchObject({
        status: 'done',
        owner: 'w1',
        completedAt: T0 + 10,
        result: { archived: 3 },
      });
      expect(await store().ledger.complete({ scope: t.alice, key: 'job', owner: 'w1', at: T0 + 20 })).toEqual(
        done,
      );
      for (const at of [T0 + 1, T0 + 365 * 24 * 60 * MINUTE]) {
        const again = await store().ledger.claim({ scope: t.alice, key: 'job', owner: 'w2', at });
        expect(again).toEqual({ claimed: false, entry: done });
      }
      expect(await store().ledger.release({ scope: t.alice, key: 'job', owner: 'w1' })).toEqual({
        released: false,
      });
      await expectCode(
        store().ledger.complete({ scope: t.alice, key: 'never-claimed', owner: 'w1' }),
        'conflict',
      );
    });

    it('releases an unfinished claim for its owner only', async () => {
      const t = newTenant();
      await store().ledger.claim({ scope: t.alice, key: 'job', owner: 'w1', at: T0 });
      expect(await store().ledger.release({ scope: t.alice, key: 'job', owner: 'w2' })).toEqual({
        released: false,
      });
      expect(await store().ledger.release({ scope: t.alice, key: 'job', owner: 'w1' })).toEqual({
        released: true,
      });
      expect(await store().ledger.get({ scope: t.alice, key: 'job' })).toBeNull();
      const reclaimed = await store().ledger.claim({ scope: t.alice, key: 'job', owner: 'w2', at: T0 + 1 });
      expect(reclaimed.claimed).toBe(true);
    });

    it('lists entries of one scope by key and status', async () => {
      const t = newTenant();
      for (const key of ['c', 'a', 'b'])
        await store().ledger.claim({ scope: t.alice, key, owner: 'w', at: T0 });
      await store().ledger.complete({ scope: t.alice, key: 'b', owner: 'w' });
      await store().ledger.claim({ scope: t.bob, key: 'z', owner: 'w', at: T0 });
      const all = await store().ledger.list({ scope: t.alice });
      expect(all.items.map((e) => e.key)).toEqual(['a', 'b', 'c']);
      const done = await store().ledger.list({ scope: t.alice, status: 'done' });
      expect(done.items.map((e) => e.key)).toEqual(['b']);
      const page = await store().ledger.list({ scope: t.alice, limit: 2 });
      expect(page.items.map((e) => e.key)).toEqual(['a', 'b']);
      const rest = await store().ledger.list({ scope: t.alice, limit: 2, cursor: page.nextCursor });
      expect(rest.items.map((e) => e.key)).toEqual(['c']);
      expect(rest.nextCursor).toBeUndefined();
    });
  });
}
