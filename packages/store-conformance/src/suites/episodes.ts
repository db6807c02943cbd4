import { contentHash, type Scope } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { allPages, DAY, expectCode, newTenant, provenance, sorted, T0, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';

export function episode(id: string, scope: Scope, text: string, extra: Record<string, unknown> = {}) {
  return { id, scope, text, occurredAt: T0, provenance, ...extra };
}

export function episodesSuite(options: StoreConformanceOptions): void {
  describe('episodes', () => {
    const store = useStore(options);

    it('round-trips every field and fills defaults', async () => {
      const t = newTenant();
      const full = {
        id: t.id('ep-full'),
        scope: t.alice,
        text: 'Supplier X lead time is 45 days',
        role: 'user' as const,
        speaker: 'Alice',
        occurredAt: T0,
        createdAt: T0 + 1,
        importance: 0.9,
        accessCount: 2,
        lastAccessedAt: T0 + 2,
        embedding: [0.6, 0.8],
        status: 'active' as const,
        accessLevel: 1,
        provenance: {
          source: 'observation' as const,
          messageId: 'm1',
          threadId: 't1',
          principalId: 'alice',
          at: T0,
        },
        metadata: { tags: ['supply'], nested: { ok: true } },
      };
      const [stored] = await store().episodes.put({
        episodes: [full, episode(t.id('ep-min'), t.alice, 'Minimal')],
      });
      expect(stored).toEqual({ ...full, contentHash: contentHash(full.text) });
      const [minimal] = await store().episodes.get({ scope: t.alice, ids: t.ids('ep-min') });
      expect(minimal).toMatchObject({
        status: 'active',
        importance: 0.5,
        accessCount: 0,
        accessLevel: 0,
        metadata: {},
        contentHash: contentHash('Minimal'),
      });
      expect(minimal!.embedding).toBeUndefined();
      expect(await store().episodes.get({ scope: t.alice, ids: t.ids('ep-full') })).toEqual([stored]);
    });

    it('fails a whole batch with conflict when one id already exists', async () => {
      const t = newTenant();
      await store().episodes.put({ episodes: [episode(t.id('dup'), t.alice, 'first')] });
      await expectCode(
        store().episodes.put({
          episodes: [episode(t.id('new-1'), t.alice, 'x'), episode(t.id('dup'), t.alice, 'again')],
        }),
        'conflict',
      );
      await expectCode(
        store().episodes.put({
          episodes: [episode(t.id('twice'), t.alice, 'x'), episode(t.id('twice'), t.alice, 'y')],
        }),
        'conflict',
      );
      expect(await store().episodes.count({ scope: t.alice })).toBe(1);
      const [kept] = await store().episodes.get({ scope: t.alice, ids: t.ids('dup') });
      expect(kept!.text).toBe('first');
    });

    it('gets visible episodes in the order of the ids asked for', async () => {
      const t = newTenant();
      await store().episodes.put({
        episodes: ['a', 'b', 'c'].map((name) => episode(t.id(name), t.alice, `text ${name}`)),
      });
      const got = await store().episodes.get({ scope: t.alice, ids: t.ids('c', 'missing', 'a', 'b') });
      expect(got.map((e) => e.id)).toEqual(t.ids('c', 'a', 'b'));
    });

    it('shows ancestors’ episodes to descendants, never a sibling’s, a descendant’s or another tenant’s', async () => {
      const t = newTenant();
      await store().episodes.put({
        episodes: [
          episode(t.id('org'), t.org, 'org wide'),
          episode(t.id('alice'), t.alice, 'alice only'),
          episode(t.id('alice-thread'), t.aliceThread, 'alice thread'),
          episode(t.id('bob'), t.bob, 'bob only'),
        ],
      });
      await store().episodes.put({
        episodes: [
          episode(t.id('other-org'), t.otherOrgAlice, 'other'),
          episode(t.id('bare'), t.bareAlice, 'bare'),
        ],
      });
      const ids = async (scope: Scope) =>
        sorted((await store().episodes.list({ scope, status: ['active'] })).items.map((e) => e.id));
      expect(await ids(t.aliceThread)).toEqual(t.ids('alice', 'alice-thread', 'org'));
      expect(await ids(t.alice)).toEqual(t.ids('alice', 'org'));
      expect(await ids(t.bob)).toEqual(t.ids('bob', 'org'));
      expect(await ids(t.org)).toEqual(t.ids('org'));
      expect(await ids(t.otherOrgAlice)).toEqual(t.ids('other-org'));
      expect(await ids(t.bareAlice)).toEqual(t.ids('bare'));
      expect(
        await store().episodes.get({ scope: t.bob, ids: t.ids('alice', 'alice-thread', 'other-org') }),
      ).toEqual([]);
      expect(await store().episodes.count({ scope: t.alice })).toBe(2);
    });

    it('hides episodes above the reader’s access level; no level means unrestricted', async () => {
      const t = newTenant();
      await store().episodes.put({
        episodes: [0, 1, 2].map((level) =>
          episode(t.id(`l${level}`), t.alice, `level ${level}`, { accessLevel: level }),
        ),
      });
      const ids = async (accessLevel?: number) =>
        sorted((await store().episodes.list({ scope: t.alice, accessLevel })).items.map((e) => e.id));
      expect(await ids(0)).toEqual(t.ids('l0'));
      expect(await ids(1)).toEqual(t.ids('l0', 'l1'));
      expect(await ids()).toEqual(t.ids('l0', 'l1', 'l2'));
      const got = await store().episodes.get({
        scope: t.alice,
        ids: t.ids('l0', 'l1', 'l2'),
        accessLevel: 1,
      });
      expect(got.map((e) => e.id)).toEqual(t.ids('l0', 'l1'));
    });

    it('lists by occurredAt then id in either order, page by page without gaps or repeats', async () => {
      const t = newTenant();
      const times = [5, 1, 3, 3, 2, 4, 3];
      await store().episodes.put({
        episodes: times.map((day, i) =>
          episode(t.id(`e${i}`), t.alice, `day ${day}`, { occurredAt: T0 + day * DAY }),
        ),
      });
      const expectedAsc = times
        .map((day, i) => ({ id: t.id(`e${i}`), at: T0 + day * DAY }))
        .sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
        .map((e) => e.id);
      const asc = await allPages((cursor) =>
        store().episodes.list({ scope: t.alice, order: 'asc', limit: 2, cursor }),
      );
      expect(asc.items.map((e) => e.id)).toEqual(expectedAsc);
      expect(asc.pages).toBe(4);
      const desc = await allPages((cursor) => store().episodes.list({ scope: t.alice, limit: 3, cursor }));
      expect(desc.items.map((e) => e.id)).toEqual([...expectedAsc].reverse());
    });

    it('filters listings and counts by status and by an inclusive time window', async () => {
      const t = newTenant();
      await store().episodes.put({
        episodes: [
          episode(t.id('d1'), t.alice, 'one', { occurredAt: T0 + DAY }),
          episode(t.id('d2'), t.alice, 'two', { occurredAt: T0 + 2 * DAY }),
          episode(t.id('d3'), t.alice, 'three', { occurredAt: T0 + 3 * DAY, status: 'archived' }),
          episode(t.id('d4'), t.alice, 'four', {
            occurredAt: T0 + 4 * DAY,
            status: 'merged',
            mergedInto: t.id('d1'),
          }),
        ],
      });
      const ids = async (args: Record<string, unknown>) =>
        sorted((await store().episodes.list({ scope: t.alice, ...args })).items.map((e) => e.id));
      expect(await ids({})).toEqual(t.ids('d1', 'd2'));
      expect(await ids({ status: ['archived', 'merged'] })).toEqual(t.ids('d3', 'd4'));
      expect(await ids({ status: ['active', 'archived'], since: T0 + 2 * DAY, until: T0 + 3 * DAY })).toEqual(
        t.ids('d2', 'd3'),
      );
      expect(await store().episodes.count({ scope: t.alice })).toBe(2);
      expect(await store().episodes.count({ scope: t.alice, status: ['active', 'archived', 'merged'] })).toBe(
        4,
      );
    });

    it('finds active episodes at exactly one scope by content hash', async () => {
      const t = newTenant();
      await store().episodes.put({
        episodes: [
          episode(t.id('h1'), t.alice, 'The invoice is PAID.'),
          episode(t.id('h2'), t.alice, 'the invoice is paid', { status: 'archived' }),
          episode(t.id('h3'), t.org, 'The invoice is paid'),
          episode(t.id('h4'), t.alice, 'Something else'),
        ],
      });
      const found = await store().episodes.findByHash({
        scope: t.alice,
        contentHashes: [contentHash('the   invoice is paid!'), contentHash('never stored')],
      });
      expect(found.map((e) => e.id)).toEqual(t.ids('h1'));
      expect(
        await store().episodes.findByHash({ scope: t.aliceThread, contentHashes: [contentHash('x')] }),
      ).toEqual([]);
    });

    it('updates an episode it can see (metadata merged) and reports others as not_found unchanged', async () => {
      const t = newTenant();
      await store().episodes.put({
        episodes: [episode(t.id('u1'), t.alice, 'update me', { metadata: { a: 1 } })],
      });
      const updated = await store().episodes.update({
        scope: t.aliceThread,
        id: t.id('u1'),
        patch: { importance: 0.8, status: 'archived', metadata: { b: 2 } },
      });
      expect(updated).toMatchObject({
        id: t.id('u1'),
        importance: 0.8,
        status: 'archived',
        metadata: { a: 1, b: 2 },
      });
      await expectCode(
        store().episodes.update({ scope: t.bob, id: t.id('u1'), patch: { importance: 0.1 } }),
        'not_found',
      );
      await expectCode(
        store().episodes.update({ scope: t.org, id: t.id('u1'), patch: { importance: 0.1 } }),
        'not_found',
      );
      await expectCode(
        store().episodes.update({ scope: t.alice, id: t.id('nope'), patch: { importance: 0.1 } }),
        'not_found',
      );
      const [after] = await store().episodes.get({ scope: t.alice, ids: t.ids('u1') });
      expect(after).toEqual(updated);
    });

    it('records access on visible episodes only', async () => {
      const t = newTenant();
      await store().episodes.put({
        episodes: [episode(t.id('r1'), t.alice, 'a'), episode(t.id('r2'), t.bob, 'b')],
      });
      await store().episodes.recordAccess({
        scope: t.alice,
        ids: t.ids('r1', 'r2', 'missing'),
        at: T0 + DAY,
      });
      await store().episodes.recordAccess({ scope: t.alice, ids: t.ids('r1'), at: T0 + 2 * DAY });
      const [r1] = await store().episodes.get({ scope: t.alice, ids: t.ids('r1') });
      const [r2] = await store().episodes.get({ scope: t.bob, ids: t.ids('r2') });
      expect(r1).toMatchObject({ accessCount: 2, lastAccessedAt: T0 + 2 * DAY });
      expect(r2!.accessCount).toBe(0);
      expect(r2!.lastAccessedAt).toBeUndefined();
    });

    it('deletes only episodes visible from the caller’s scope', async () => {
      const t = newTenant();
      await store().episodes.put({
        episodes: [
          episode(t.id('x1'), t.alice, 'a'),
          episode(t.id('x2'), t.alice, 'b'),
          episode(t.id('x3'), t.bob, 'c'),
        ],
      });
      expect(await store().episodes.delete({ scope: t.bob, ids: t.ids('x1') })).toEqual({ deleted: 0 });
      expect(await store().episodes.delete({ scope: t.alice, ids: t.ids('x1', 'x3', 'missing') })).toEqual({
        deleted: 1,
      });
      expect(await store().episodes.count({ scope: t.alice })).toBe(1);
      expect(await store().episodes.count({ scope: t.bob })).toBe(1);
    });
  });
}
