import { reviewDedupeKey, type Scope } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { allPages, expectCode, newTenant, provenance, T0, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';

export function reviewItem(scope: Scope, id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    scope,
    kind: 'fact' as const,
    reason: 'low_confidence' as const,
    proposal: { entityType: 'supplier', entity: 'X', key: 'lead time', value: 30 },
    confidence: 0.6,
    provenance,
    createdAt: T0,
    ...extra,
  };
}

export function reviewSuite(options: StoreConformanceOptions): void {
  describe('review queue', () => {
    const store = useStore(options);

    it('adds pending items and reads them back', async () => {
      const t = newTenant();
      const added = await store().review.add({
        item: reviewItem(t.alice, t.id('r1'), { reason: 'hypothetical' }),
      });
      const item = reviewItem(t.alice, t.id('r1'), { reason: 'hypothetical' });
      expect(added).toEqual({
        ...item,
        dedupeKey: reviewDedupeKey(item.kind, item.proposal),
        accessLevel: 0,
        status: 'pending',
      });
      expect(await store().review.get({ scope: t.aliceThread, ids: t.ids('r1') })).toEqual([added]);
      expect(await store().review.get({ scope: t.bob, ids: t.ids('r1') })).toEqual([]);
      await expectCode(store().review.add({ item: reviewItem(t.alice, t.id('r1')) }), 'conflict');
    });

    it('decides a pending item once; a second decision is a conflict and changes nothing', async () => {
      const t = newTenant();
      await store().review.add({ item: reviewItem(t.alice, t.id('r1')) });
      const approved = await store().review.decide({
        scope: t.alice,
        id: t.id('r1'),
        status: 'approved',
        by: 'manager-1',
        at: T0 + 5,
        note: 'confirmed by phone',
      });
      expect(approved).toMatchObject({
        status: 'approved',
        decidedBy: 'manager-1',
        decidedAt: T0 + 5,
        note: 'confirmed by phone',
      });
      await expectCode(
        store().review.decide({ scope: t.alice, id: t.id('r1'), status: 'rejected', by: 'x' }),
        'conflict',
      );
      expect(await store().review.get({ scope: t.alice, ids: t.ids('r1') })).toEqual([approved]);
    });

    it('reports items outside the caller’s scope, and unknown ids, as not_found', async () => {
      const t = newTenant();
      await store().review.add({ item: reviewItem(t.alice, t.id('r1')) });
      await expectCode(
        store().review.decide({ scope: t.bob, id: t.id('r1'), status: 'approved', by: 'bob' }),
        'not_found',
      );
      await expectCode(
        store().review.decide({ scope: t.alice, id: t.id('nope'), status: 'approved', by: 'a' }),
        'not_found',
      );
      const [item] = await store().review.get({ scope: t.alice, ids: t.ids('r1') });
      expect(item!.status).toBe('pending');
    });

    it('lists oldest first, by status and access level, page by page', async () => {
      const t = newTenant();
      for (let i = 0; i < 5; i++) {
        await store().review.add({
          item: reviewItem(t.alice, t.id(`r${i}`), { createdAt: T0 + (5 - i), accessLevel: i === 0 ? 2 : 0 }),
        });
      }
      await store().review.add({ item: reviewItem(t.bob, t.id('bob-item')) });
      await store().review.decide({ scope: t.alice, id: t.id('r4'), status: 'rejected', by: 'm' });
      const pending = await allPages((cursor) => store().review.list({ scope: t.alice, limit: 2, cursor }));
      expect(pending.items.map((i) => i.id)).toEqual(t.ids('r3', 'r2', 'r1', 'r0'));
      const visible = await store().review.list({ scope: t.alice, accessLevel: 1 });
      expect(visible.items.map((i) => i.id)).toEqual(t.ids('r3', 'r2', 'r1'));
      const rejected = await store().review.list({ scope: t.alice, status: ['rejected'] });
      expect(rejected.items.map((i) => i.id)).toEqual(t.ids('r4'));
    });

    it('finds the items that propose the same change by their dedupe key, however long the queue', async () => {
      const t = newTenant();
      let at = T0;
      const same = (id: string, extra: Record<string, unknown> = {}) =>
        reviewItem(t.alice, t.id(id), {
          proposal: { ...reviewItem(t.alice, id).proposal, ...extra },
          createdAt: at++,
        });
      await store().review.add({ item: same('first', { evidence: 'said on Monday' }) });
      for (let i = 0; i < 30; i++) {
        await store().review.add({ item: same(`other-${i}`, { value: 100 + i }) });
      }
      await store().review.add({ item: same('again', { evidence: 'said on Friday' }) });
      await store().review.add({
        item: { ...same('bob-copy', { evidence: 'Bob' }), scope: t.bob },
      });
      const key = reviewDedupeKey('fact', same('x').proposal);
      const found = await store().review.list({ scope: t.alice, dedupeKey: key });
      expect(found.items.map((i) => i.id)).toEqual(t.ids('first', 'again'));
      expect(found.items.every((i) => i.dedupeKey === key)).toBe(true);
      const other = await store().review.list({
        scope: t.alice,
        dedupeKey: reviewDedupeKey('fact', same('x', { value: 107 }).proposal),
      });
      expect(other.items.map((i) => i.id)).toEqual(t.ids('other-7'));
      // Every item added through the store has a key: none is listed as stored without one.
      expect((await store().review.list({ scope: t.alice, dedupeKey: null })).items).toEqual([]);
      await expectCode(store().review.list({ scope: t.alice, dedupeKey: 'not-a-key' }), 'invalid_input');
    });
  });
}
