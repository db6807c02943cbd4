import type { Scope } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { allPages, DAY, expectCode, newTenant, provenance, sorted, T0, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';

export function fact(scope: Scope, key: string, value: unknown, extra: Record<string, unknown> = {}) {
  return {
    scope,
    entityType: 'supplier',
    entityId: 'supplier x',
    key,
    value: value as string,
    validFrom: T0,
    createdAt: T0,
    provenance,
    ...extra,
  };
}

export function factsSuite(options: StoreConformanceOptions): void {
  describe('facts', () => {
    const store = useStore(options);

    it('inserts version 1 as active and round-trips it', async () => {
      const t = newTenant();
      const inserted = await store().facts.insert({
        fact: fact(
          t.alice,
          'Lead Time',
          { days: 45 },
          { id: t.id('f1'), confidence: 0.9, metadata: { from: 'email' } },
        ),
      });
      expect(inserted).toEqual({
        id: t.id('f1'),
        scope: t.alice,
        entityType: 'supplier',
        entityId: 'supplier x',
        key: 'lead time',
        value: { days: 45 },
        confidence: 0.9,
        status: 'active',
        validFrom: T0,
        version: 1,
        lastConfirmedAt: T0,
        accessLevel: 0,
        provenance,
        createdAt: T0,
        metadata: { from: 'email' },
      });
      expect(await store().facts.get({ scope: t.aliceThread, ids: t.ids('f1') })).toEqual([inserted]);
    });

    it('refuses a second current fact for the same key and scope, but allows it at another scope', async () => {
      const t = newTenant();
      await store().facts.insert({ fact: fact(t.alice, 'lead time', 45) });
      const error = await expectCode(
        store().facts.insert({ fact: fact(t.alice, 'lead time', 30) }),
        'conflict',
      );
      expect(error.retryable).toBe(true);
      const child = await store().facts.insert({ fact: fact(t.aliceThread, 'lead time', 30) });
      const org = await store().facts.insert({ fact: fact(t.org, 'lead time', 60) });
      expect([child.version, org.version]).toEqual([1, 1]);
      const current = await store().facts.find({ scope: t.aliceThread, key: 'lead time' });
      expect(sorted(current.items.map((f) => f.value as number))).toEqual([30, 45, 60]);
    });

    it('supersedes along a chain, keeping every version linked in history', async () => {
      const t = newTenant();
      const v1 = await store().facts.insert({ fact: fact(t.alice, 'lead time', 45, { id: t.id('v1') }) });
      const step2 = await store().facts.supersede({
        scope: t.alice,
        id: v1.id,
        expectedVersion: 1,
        next: {
          id: t.id('v2'),
          value: 30,
          confidence: 0.95,
          provenance: { ...provenance, source: 'human' as const },
        },
        at: T0 + DAY,
      });
      expect(step2.previous).toMatchObject({
        id: t.id('v1'),
        status: 'superseded',
        validTo: T0 + DAY,
        supersededBy: t.id('v2'),
      });
      expect(step2.current).toMatchObject({
        id: t.id('v2'),
        scope: t.alice,
        entityType: 'supplier',
        entityId: 'supplier x',
        key: 'lead time',
        value: 30,
        confidence: 0.95,
        status: 'active',
        version: 2,
        supersedes: t.id('v1'),
        validFrom: T0 + DAY,
      });
      expect(step2.current.validTo).toBeUndefined();
      await store().facts.supersede({
        scope: t.aliceThread,
        id: t.id('v2'),
        next: { id: t.id('v3'), value: 35, provenance },
        at: T0 + 2 * DAY,
      });
      const history = await store().facts.history({
        scope: t.alice,
        entityType: 'supplier',
        entityId: 'supplier x',
        key: 'lead time',
      });
      expect(history.map((f) => [f.id, f.version, f.status, f.supersedes, f.supersededBy])).toEqual([
        [t.id('v1'), 1, 'superseded', undefined, t.id('v2')],
        [t.id('v2'), 2, 'superseded', t.id('v1'), t.id('v3')],
        [t.id('v3'), 3, 'active', t.id('v2'), undefined],
      ]);
      const current = await store().facts.find({ scope: t.alice, key: 'lead time' });
      expect(current.items.map((f) => f.id)).toEqual(t.ids('v3'));
    });

    it('refuses to supersede a version that is no longer current or has another version number', async () => {
      const t = newTenant();
      const v1 = await store().facts.insert({ fact: fact(t.alice, 'terms', 'net 30', { id: t.id('v1') }) });
      await store().facts.supersede({
        scope: t.alice,
        id: v1.id,
        next: { id: t.id('v2'), value: 'net 45', provenance },
      });
      await expectCode(
        store().facts.supersede({
          scope: t.alice,
          id: t.id('v1'),
          next: { id: t.id('v3'), value: 'net 60', provenance },
        }),
        'conflict',
      );
      await expectCode(
        store().facts.supersede({
          scope: t.alice,
          id: t.id('v2'),
          expectedVersion: 1,
          next: { id: t.id('v3'), value: 'net 60', provenance },
        }),
        'conflict',
      );
      const history = await store().facts.history({
        scope: t.alice,
        entityType: 'supplier',
        entityId: 'supplier x',
        key: 'terms',
      });
      expect(history.map((f) => [f.id, f.status, f.value])).toEqual([
        [t.id('v1'), 'superseded', 'net 30'],
        [t.id('v2'), 'active', 'net 45'],
      ]);
      expect(await store().facts.get({ scope: t.alice, ids: t.ids('v3') })).toEqual([]);
    });

    it('lets exactly one of two concurrent writers supersede the same version', async () => {
      const t = newTenant();
      const v1 = await store().facts.insert({ fact: fact(t.alice, 'price', 100, { id: t.id('v1') }) });
      const attempts = await Promise.allSettled(
        ['a', 'b'].map((writer) =>
          store().facts.supersede({
            scope: t.alice,
            id: v1.id,
            expectedVersion: 1,
            next: { id: t.id(`v2-${writer}`), value: writer === 'a' ? 110 : 120, provenance },
          }),
        ),
      );
      const won = attempts.filter((a) => a.status === 'fulfilled');
      const lost = attempts.filter((a) => a.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect((lost[0] as PromiseRejectedResult).reason.code).toBe('conflict');
      const winner = (won[0] as PromiseFulfilledResult<{ current: { id: string } }>).value.current.id;
      const history = await store().facts.history({
        scope: t.alice,
        entityType: 'supplier',
        entityId: 'supplier x',
        key: 'price',
      });
      expect(history.map((f) => [f.id, f.version, f.status])).toEqual([
        [t.id('v1'), 1, 'superseded'],
        [winner, 2, 'active'],
      ]);
      expect(history[0]!.supersededBy).toBe(winner);
    });

    it('reports a fact outside the caller’s scope as not_found and changes nothing', async () => {
      const t = newTenant();
      const v1 = await store().facts.insert({ fact: fact(t.alice, 'city', 'Lyon', { id: t.id('v1') }) });
      await expectCode(
        store().facts.supersede({
          scope: t.bob,
          id: v1.id,
          next: { id: t.id('v2'), value: 'Paris', provenance },
        }),
        'not_found',
      );
      await expectCode(
        store().facts.update({ scope: t.bob, id: v1.id, patch: { confidence: 0.1 } }),
        'not_found',
      );
      await expectCode(
        store().facts.supersede({
          scope: t.alice,
          id: t.id('missing'),
          next: { id: t.id('v9'), value: 'x', provenance },
        }),
        'not_found',
      );
      expect(await store().facts.delete({ scope: t.bob, ids: [v1.id] })).toEqual({ deleted: 0 });
      expect(await store().facts.get({ scope: t.alice, ids: t.ids('v1', 'v2') })).toEqual([v1]);
    });

    it('lists history with ancestors first, then by version, without siblings', async () => {
      const t = newTenant();
      await store().facts.insert({ fact: fact(t.org, 'rating', 'A', { id: t.id('org-1') }) });
      const a1 = await store().facts.insert({ fact: fact(t.alice, 'rating', 'B', { id: t.id('alice-1') }) });
      await store().facts.supersede({
        scope: t.alice,
        id: a1.id,
        next: { id: t.id('alice-2'), value: 'C', provenance },
      });
      await store().facts.insert({ fact: fact(t.aliceThread, 'rating', 'D', { id: t.id('thread-1') }) });
      await store().facts.insert({ fact: fact(t.bob, 'rating', 'E', { id: t.id('bob-1') }) });
      const history = await store().facts.history({
        scope: t.aliceThread,
        entityType: 'supplier',
        entityId: 'supplier x',
        key: 'rating',
      });
      expect(history.map((f) => f.id)).toEqual(t.ids('org-1', 'alice-1', 'alice-2', 'thread-1'));
      const fromAlice = await store().facts.history({
        scope: t.alice,
        entityType: 'supplier',
        entityId: 'supplier x',
        key: 'rating',
      });
      expect(fromAlice.map((f) => f.id)).toEqual(t.ids('org-1', 'alice-1', 'alice-2'));
    });

    it('finds facts by entity, key, status and access level, newest first, page by page', async () => {
      const t = newTenant();
      for (let i = 0; i < 5; i++) {
        await store().facts.insert({
          fact: fact(t.alice, `attr ${i}`, i, {
            id: t.id(`f${i}`),
            createdAt: T0 + i,
            accessLevel: i === 4 ? 2 : 0,
          }),
        });
      }
      await store().facts.insert({
        fact: fact(t.alice, 'attr 0', 'other entity', {
          id: t.id('g0'),
          entityType: 'user',
          entityId: 'alice',
        }),
      });
      const all = await allPages((cursor) =>
        store().facts.find({ scope: t.alice, entityType: 'supplier', limit: 2, cursor }),
      );
      expect(all.items.map((f) => f.id)).toEqual(t.ids('f4', 'f3', 'f2', 'f1', 'f0'));
      expect(all.pages).toBe(3);
      const restricted = await store().facts.find({ scope: t.alice, entityType: 'supplier', accessLevel: 1 });
      expect(restricted.items.map((f) => f.id)).toEqual(t.ids('f3', 'f2', 'f1', 'f0'));
      const byKey = await store().facts.find({ scope: t.alice, key: 'ATTR 0' });
      expect(sorted(byKey.items.map((f) => f.id))).toEqual(t.ids('f0', 'g0'));
      const byEntity = await store().facts.find({ scope: t.alice, entityType: 'user', entityId: 'alice' });
      expect(byEntity.items.map((f) => f.id)).toEqual(t.ids('g0'));
      await store().facts.supersede({
        scope: t.alice,
        id: t.id('f0'),
        next: { id: t.id('f0b'), value: 'new', provenance },
      });
      const superseded = await store().facts.find({ scope: t.alice, status: ['superseded'] });
      expect(superseded.items.map((f) => f.id)).toEqual(t.ids('f0'));
      expect((await store().facts.find({ scope: t.bob })).items).toEqual([]);
    });

    it('updates a current fact (metadata merged) but not a superseded one', async () => {
      const t = newTenant();
      await store().facts.insert({ fact: fact(t.alice, 'size', 10, { id: t.id('v1'), metadata: { a: 1 } }) });
      const stale = await store().facts.update({
        scope: t.alice,
        id: t.id('v1'),
        patch: { status: 'stale', confidence: 0.4, lastConfirmedAt: T0 + DAY, metadata: { b: 2 } },
      });
      expect(stale).toMatchObject({
        status: 'stale',
        confidence: 0.4,
        lastConfirmedAt: T0 + DAY,
        metadata: { a: 1, b: 2 },
      });
      // A stale fact is still current: inserting the key again conflicts, superseding it works.
      await expectCode(store().facts.insert({ fact: fact(t.alice, 'size', 11) }), 'conflict');
      await store().facts.supersede({
        scope: t.alice,
        id: t.id('v1'),
        next: { id: t.id('v2'), value: 12, provenance },
      });
      await expectCode(
        store().facts.update({ scope: t.alice, id: t.id('v1'), patch: { status: 'active' } }),
        'conflict',
      );
      const [v1] = await store().facts.get({ scope: t.alice, ids: t.ids('v1') });
      expect(v1!.status).toBe('superseded');
    });

    it('deletes visible facts; deleting the current version frees its key', async () => {
      const t = newTenant();
      await store().facts.insert({ fact: fact(t.alice, 'color', 'red', { id: t.id('c1') }) });
      expect(await store().facts.delete({ scope: t.alice, ids: t.ids('c1', 'missing') })).toEqual({
        deleted: 1,
      });
      expect(await store().facts.get({ scope: t.alice, ids: t.ids('c1') })).toEqual([]);
      const again = await store().facts.insert({ fact: fact(t.alice, 'color', 'blue', { id: t.id('c2') }) });
      expect(again.status).toBe('active');
    });
  });
}
