import type { FactRecord, MessageRecord } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { DAY, expectCode, newTenant, provenance, T0, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';

/** `restore` writes records back as they were (an import): ids, versions, sequence numbers and times kept. */
export function restoreSuite(options: StoreConformanceOptions): void {
  describe('restore', () => {
    const store = useStore(options);

    it('restores a thread with its messages, keeping seq (gaps too), times and fields', async () => {
      const t = newTenant();
      const thread = {
        scope: t.aliceThread,
        title: 'Pricing',
        metadata: { channel: 'email' },
        summary: 'Earlier: prices were discussed.',
        summarizedThroughSeq: 2,
        createdAt: T0,
        updatedAt: T0 + 5 * DAY,
      };
      const messages: Array<Omit<MessageRecord, 'scope'>> = [
        { id: 'm1', seq: 1, role: 'user', content: 'hello', createdAt: T0, metadata: {} },
        {
          id: 'm4',
          seq: 4,
          role: 'assistant',
          content: 'looking it up',
          name: 'bot',
          toolCalls: [{ id: 'call1', name: 'lookup', input: { q: 'price' } }],
          createdAt: T0 + DAY,
          metadata: { k: 1 },
        },
      ];
      const result = await store().threads.restore({ thread, messages });
      expect(result).toEqual({ thread, messages: 2 });
      expect(await store().threads.get({ scope: t.aliceThread })).toEqual(thread);
      expect(await store().threads.listMessages({ scope: t.aliceThread })).toEqual(
        messages.map((m) => ({ ...m, scope: t.aliceThread })),
      );
      // Appends number on after the highest restored seq.
      const [next] = await store().threads.appendMessages({
        scope: t.aliceThread,
        messages: [{ role: 'user', content: 'and now?', createdAt: T0 + 6 * DAY }],
      });
      expect(next!.seq).toBe(5);
    });

    it('refuses a message id or seq already in the thread, writing none of the batch', async () => {
      const t = newTenant();
      const thread = { scope: t.aliceThread, metadata: {}, createdAt: T0, updatedAt: T0 };
      await store().threads.restore({
        thread,
        messages: [{ id: 'm1', seq: 1, role: 'user', content: 'a', createdAt: T0, metadata: {} }],
      });
      await expectCode(
        store().threads.restore({
          thread,
          messages: [
            { id: 'm2', seq: 2, role: 'user', content: 'b', createdAt: T0, metadata: {} },
            { id: 'm3', seq: 1, role: 'user', content: 'c', createdAt: T0, metadata: {} },
          ],
        }),
        'conflict',
      );
      const stored = await store().threads.listMessages({ scope: t.aliceThread });
      expect(stored.map((m) => m.id)).toEqual(['m1']);
    });

    it('restores fact versions exactly, history included', async () => {
      const t = newTenant();
      const base = {
        scope: t.alice,
        entityType: 'supplier',
        entityId: 'supplier x',
        key: 'lead time',
        accessLevel: 0,
        provenance,
        metadata: {},
      };
      const v1: FactRecord = {
        ...base,
        id: t.id('v1'),
        value: '45 days',
        confidence: 0.8,
        status: 'superseded',
        validFrom: T0,
        validTo: T0 + DAY,
        version: 1,
        supersededBy: t.id('v3'),
        lastConfirmedAt: T0,
        createdAt: T0,
      };
      // Version 2 was deleted: the gap stays.
      const v3: FactRecord = {
        ...base,
        id: t.id('v3'),
        value: '30 days',
        confidence: 1,
        status: 'stale',
        validFrom: T0 + DAY,
        version: 3,
        supersedes: t.id('v1'),
        lastConfirmedAt: T0 + 2 * DAY,
        createdAt: T0 + DAY,
        provenance: { ...provenance, source: 'human', via: 'imported edit' },
        metadata: { correction: true },
      };
      expect(await store().facts.restore({ facts: [v1, v3] })).toEqual({ restored: 2 });
      const key = { entityType: 'supplier', entityId: 'supplier x', key: 'lead time' };
      expect(await store().facts.history({ scope: t.alice, ...key })).toEqual([v1, v3]);
      const current = await store().facts.find({ scope: t.alice });
      expect(current.items).toEqual([v3]);
    });

    it('refuses an existing id, a repeated version or a second current version, writing nothing', async () => {
      const t = newTenant();
      const fact = (name: string, version: number, status: FactRecord['status']): FactRecord => ({
        id: t.id(name),
        scope: t.alice,
        entityType: 'supplier',
        entityId: 'supplier y',
        key: 'terms',
        value: `net ${version * 30}`,
        confidence: 1,
        status,
        validFrom: T0,
        version,
        lastConfirmedAt: T0,
        accessLevel: 0,
        provenance,
        createdAt: T0,
        metadata: {},
      });
      await store().facts.restore({ facts: [fact('a', 1, 'active')] });
      await expectCode(store().facts.restore({ facts: [fact('a', 2, 'superseded')] }), 'conflict');
      await expectCode(
        store().facts.restore({ facts: [fact('b', 2, 'superseded'), fact('c', 1, 'superseded')] }),
        'conflict',
      );
      await expectCode(store().facts.restore({ facts: [fact('d', 3, 'active')] }), 'conflict');
      const all = await store().facts.find({
        scope: t.alice,
        status: ['active', 'pending_review', 'superseded', 'stale'],
      });
      expect(all.items.map((f) => f.id)).toEqual([t.id('a')]);
    });

    it('restores state entries with their versions and refuses an existing key', async () => {
      const t = newTenant();
      const entry = { scope: t.alice, key: 'cursor', value: { page: 7 }, version: 7, updatedAt: T0 };
      expect(await store().state.restore({ entries: [entry] })).toEqual({ restored: 1 });
      expect(await store().state.get({ scope: t.alice, key: 'cursor' })).toEqual(entry);
      const next = await store().state.set({ scope: t.alice, key: 'cursor', value: { page: 8 }, at: T0 + 1 });
      expect(next.version).toBe(8);
      await expectCode(
        store().state.restore({
          entries: [
            { scope: t.alice, key: 'other', value: 1, version: 1, updatedAt: T0 },
            { ...entry, version: 1 },
          ],
        }),
        'conflict',
      );
      expect(await store().state.get({ scope: t.alice, key: 'other' })).toBeNull();
    });
  });
}
