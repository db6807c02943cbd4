import { describe, expect, it } from 'vitest';
import { newTenant, provenance, T0, useStore, visibleCounts } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';
import { episode } from './episodes.ts';
import { fact } from './facts.ts';
import { reviewItem } from './review.ts';

const SKIP_REASON =
  'the store does not declare transactions; the capabilities suite checks that transaction fails with unsupported';

export function transactionsSuite(options: StoreConformanceOptions): void {
  describe('transactions', () => {
    const store = useStore(options);

    it('commits every write made through the transaction, across sub-stores', async ({ skip }) => {
      skip(!store().capabilities.transactions, SKIP_REASON);
      const t = newTenant();
      const result = await store().transaction(async (tx) => {
        await tx.episodes.put({ episodes: [episode(t.id('tx-ep'), t.alice, 'inside a transaction')] });
        await tx.facts.insert({ fact: fact(t.alice, 'status', 'ok', { id: t.id('tx-fact') }) });
        await tx.state.set({ scope: t.alice, key: 'checkpoint', value: 7 });
        // Reads inside see the transaction's own writes.
        expect(await tx.episodes.count({ scope: t.alice })).toBe(1);
        return 'done';
      });
      expect(result).toBe('done');
      expect(await store().episodes.count({ scope: t.alice })).toBe(1);
      expect(
        (await store().facts.get({ scope: t.alice, ids: t.ids('tx-fact') })).map((f) => f.value),
      ).toEqual(['ok']);
      expect((await store().state.get({ scope: t.alice, key: 'checkpoint' }))!.value).toBe(7);
    });

    it('rolls back everything written inside when the function throws, and rethrows its error', async ({
      skip,
    }) => {
      skip(!store().capabilities.transactions, SKIP_REASON);
      const t = newTenant();
      await store().episodes.put({ episodes: [episode(t.id('before'), t.alice, 'written before')] });
      await store().facts.insert({ fact: fact(t.alice, 'plan', 'free', { id: t.id('plan-v1') }) });
      const before = await visibleCounts(store(), t.alice);
      const failure = new Error('the agent crashed mid-way');
      let caught: unknown;
      try {
        await store().transaction(async (tx) => {
          await tx.threads.appendMessages({
            scope: t.aliceThread,
            messages: [{ id: 'tx-m', role: 'user', content: 'lost', createdAt: T0 }],
          });
          await tx.episodes.put({ episodes: [episode(t.id('tx-ep'), t.alice, 'lost episode')] });
          await tx.episodes.update({ scope: t.alice, id: t.id('before'), patch: { importance: 1 } });
          await tx.facts.supersede({
            scope: t.alice,
            id: t.id('plan-v1'),
            next: { id: t.id('plan-v2'), value: 'pro', provenance },
          });
          const a = await tx.graph.upsertNode({ node: { scope: t.alice, type: 'x', name: 'a', provenance } });
          const b = await tx.graph.upsertNode({ node: { scope: t.alice, type: 'x', name: 'b', provenance } });
          await tx.graph.addEdge({
            edge: { scope: t.alice, from: a.id, to: b.id, relation: 'r', provenance },
          });
          await tx.state.set({ scope: t.alice, key: 's', value: 1 });
          await tx.ledger.claim({ scope: t.alice, key: 'l', owner: 'w' });
          await tx.review.add({ item: reviewItem(t.alice, t.id('tx-review')) });
          await tx.audit.append({ entries: [{ scope: t.alice, action: 'tx.test' }] });
          throw failure;
        });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBe(failure);
      expect(await visibleCounts(store(), t.alice)).toEqual(before);
      expect(await store().threads.get({ scope: t.aliceThread })).toBeNull();
      expect(await store().threads.listMessages({ scope: t.aliceThread })).toEqual([]);
      const [kept] = await store().episodes.get({ scope: t.alice, ids: t.ids('before') });
      expect(kept!.importance).toBe(0.5);
      const [plan] = await store().facts.get({ scope: t.alice, ids: t.ids('plan-v1') });
      expect(plan).toMatchObject({ status: 'active', value: 'free' });
      expect(plan!.supersededBy).toBeUndefined();
      // The superseded-then-rolled-back version can be superseded again.
      const next = await store().facts.supersede({
        scope: t.alice,
        id: t.id('plan-v1'),
        next: { id: t.id('plan-v2'), value: 'team', provenance },
      });
      expect(next.current.version).toBe(2);
    });

    it('keeps the transaction going when a call inside fails and the function handles it', async ({
      skip,
    }) => {
      skip(!store().capabilities.transactions, SKIP_REASON);
      const t = newTenant();
      await store().facts.insert({ fact: fact(t.alice, 'k', 1, { id: t.id('existing') }) });
      await store().transaction(async (tx) => {
        await tx.state.set({ scope: t.alice, key: 'a', value: 1 });
        const duplicate = await tx.facts.insert({ fact: fact(t.alice, 'k', 2) }).catch((error) => error.code);
        expect(duplicate).toBe('conflict');
        await tx.state.set({ scope: t.alice, key: 'b', value: 2 });
      });
      const keys = (await store().state.list({ scope: t.alice })).items.map((e) => e.key);
      expect(keys).toEqual(['a', 'b']);
      expect((await store().facts.find({ scope: t.alice })).items.map((f) => f.id)).toEqual(
        t.ids('existing'),
      );
    });

    it('runs a nested transaction as a savepoint: its failure undoes only its own writes', async ({
      skip,
    }) => {
      skip(!store().capabilities.transactions, SKIP_REASON);
      const t = newTenant();
      const inner = new Error('the inner step failed');
      const result = await store().transaction(async (tx) => {
        await tx.state.set({ scope: t.alice, key: 'a', value: 1 });
        const caught = await store()
          .transaction(async (nested) => {
            await nested.state.set({ scope: t.alice, key: 'b', value: 2 });
            await nested.episodes.put({ episodes: [episode(t.id('nested-ep'), t.alice, 'undone with b')] });
            await nested.state.set({ scope: t.alice, key: 'a', value: 'changed' });
            throw inner;
          })
          .catch((error: unknown) => error);
        expect(caught).toBe(inner);
        // Undone at once, inside the still open transaction.
        expect((await tx.state.get({ scope: t.alice, key: 'a' }))!.value).toBe(1);
        expect(await tx.state.get({ scope: t.alice, key: 'b' })).toBeNull();
        const kept = await store().transaction(async (nested) => {
          await nested.state.set({ scope: t.alice, key: 'c', value: 3 });
          return 'kept';
        });
        await tx.state.set({ scope: t.alice, key: 'd', value: 4 });
        return kept;
      });
      expect(result).toBe('kept');
      const entries = (await store().state.list({ scope: t.alice })).items.map((e) => [e.key, e.value]);
      expect(entries).toEqual([
        ['a', 1],
        ['c', 3],
        ['d', 4],
      ]);
      expect(await store().episodes.count({ scope: t.alice })).toBe(0);
    });

    it('nests savepoints in savepoints, and rolls a committed nested transaction back with the outer one', async ({
      skip,
    }) => {
      skip(!store().capabilities.transactions, SKIP_REASON);
      const t = newTenant();
      await store().transaction(async (tx) => {
        await tx.state.set({ scope: t.alice, key: 'outer', value: 1 });
        await store().transaction(async (middle) => {
          await middle.state.set({ scope: t.alice, key: 'middle', value: 2 });
          await store()
            .transaction(async (innermost) => {
              await innermost.state.set({ scope: t.alice, key: 'innermost', value: 3 });
              throw new Error('innermost failed');
            })
            .catch(() => undefined);
          await middle.state.set({ scope: t.alice, key: 'middle-after', value: 4 });
        });
      });
      const keys = (await store().state.list({ scope: t.alice })).items.map((e) => e.key);
      expect(keys).toEqual(['middle', 'middle-after', 'outer']);

      const outerFailure = new Error('the outer step failed');
      await expect(
        store().transaction(async (tx) => {
          await store().transaction(async (nested) => {
            await nested.state.set({ scope: t.bob, key: 'committed-inside', value: 1 });
          });
          await tx.state.set({ scope: t.bob, key: 'outer', value: 2 });
          throw outerFailure;
        }),
      ).rejects.toBe(outerFailure);
      expect((await store().state.list({ scope: t.bob })).items).toEqual([]);
    });

    it('never shows a read from outside the transaction its uncommitted writes', async ({ skip }) => {
      skip(!store().capabilities.transactions, SKIP_REASON);
      const t = newTenant();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let wroteFirst!: () => void;
      const firstWritten = new Promise<void>((resolve) => (wroteFirst = resolve));
      const transaction = store().transaction(async (tx) => {
        await tx.state.set({ scope: t.alice, key: 'progress', value: 'half' });
        wroteFirst();
        await gate;
        await tx.state.set({ scope: t.alice, key: 'progress', value: 'complete' });
      });
      await firstWritten;
      const outsideRead = store().state.get({ scope: t.alice, key: 'progress' });
      // Let the outside read run (or queue) before the transaction finishes.
      await new Promise((resolve) => setTimeout(resolve, 20));
      release();
      await transaction;
      const seen = await outsideRead;
      expect(seen === null || seen.value === 'complete').toBe(true);
      expect((await store().state.get({ scope: t.alice, key: 'progress' }))!.value).toBe('complete');
    });
  });
}
