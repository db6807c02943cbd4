import { describe, expect, it } from 'vitest';
import { allPages, expectCode, newTenant, T0, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';

export function auditSuite(options: StoreConformanceOptions): void {
  describe('audit log', () => {
    const store = useStore(options);

    it('appends entries and lists them by time, then insertion order, in either order', async () => {
      const t = newTenant();
      const appended = await store().audit.append({
        entries: [
          {
            id: t.id('a2'),
            scope: t.alice,
            at: T0 + 2,
            action: 'fact.supersede',
            subjectType: 'fact',
            subjectId: 'f1',
          },
          {
            id: t.id('a1'),
            scope: t.alice,
            at: T0 + 1,
            action: 'episode.merge',
            actor: 'consolidator',
            details: { n: 2 },
          },
          { id: t.id('a3'), scope: t.alice, at: T0 + 2, action: 'fact.stale' },
        ],
      });
      expect(appended[1]).toEqual({
        id: t.id('a1'),
        scope: t.alice,
        at: T0 + 1,
        action: 'episode.merge',
        actor: 'consolidator',
        details: { n: 2 },
      });
      expect(appended[0]!.actor).toBe('system');
      const asc = await store().audit.list({ scope: t.alice });
      expect(asc.items.map((e) => e.id)).toEqual(t.ids('a1', 'a2', 'a3'));
      const desc = await store().audit.list({ scope: t.alice, order: 'desc' });
      expect(desc.items.map((e) => e.id)).toEqual(t.ids('a3', 'a2', 'a1'));
    });

    it('lists the subtree of a scope: descendants yes, ancestors and siblings no', async () => {
      const t = newTenant();
      await store().audit.append({
        entries: [
          { id: t.id('org'), scope: t.org, at: T0, action: 'forget' },
          { id: t.id('alice'), scope: t.alice, at: T0 + 1, action: 'fact.insert' },
          { id: t.id('thread'), scope: t.aliceThread, at: T0 + 2, action: 'episode.put' },
          { id: t.id('bob'), scope: t.bob, at: T0 + 3, action: 'fact.insert' },
        ],
      });
      const ids = async (scope: typeof t.org) => (await store().audit.list({ scope })).items.map((e) => e.id);
      expect(await ids(t.alice)).toEqual(t.ids('alice', 'thread'));
      expect(await ids(t.org)).toEqual(t.ids('org', 'alice', 'thread', 'bob'));
      expect(await ids(t.aliceThread)).toEqual(t.ids('thread'));
      expect(await ids(t.otherOrgAlice)).toEqual([]);
    });

    it('filters by actions, subject and an inclusive time window, page by page', async () => {
      const t = newTenant();
      await store().audit.append({
        entries: Array.from({ length: 10 }, (_, i) => ({
          id: t.id(`e${i}`),
          scope: t.alice,
          at: T0 + i,
          action: i % 2 === 0 ? 'fact.supersede' : 'episode.archive',
          subjectId: i < 5 ? 'subject-a' : 'subject-b',
        })),
      });
      const list = (args: Record<string, unknown>) =>
        allPages((cursor) => store().audit.list({ scope: t.alice, limit: 2, cursor, ...args }));
      expect((await list({ actions: ['episode.archive'] })).items.map((e) => e.id)).toEqual(
        t.ids('e1', 'e3', 'e5', 'e7', 'e9'),
      );
      expect(
        (await list({ subjectId: 'subject-b', actions: ['fact.supersede'] })).items.map((e) => e.id),
      ).toEqual(t.ids('e6', 'e8'));
      expect((await list({ since: T0 + 3, until: T0 + 5 })).items.map((e) => e.id)).toEqual(
        t.ids('e3', 'e4', 'e5'),
      );
      const desc = await list({ order: 'desc' });
      expect(desc.items.map((e) => e.id)).toEqual(
        t.ids('e9', 'e8', 'e7', 'e6', 'e5', 'e4', 'e3', 'e2', 'e1', 'e0'),
      );
      expect(desc.pages).toBe(5);
    });

    it('rejects a batch holding an existing id, storing none of it', async () => {
      const t = newTenant();
      await store().audit.append({ entries: [{ id: t.id('x'), scope: t.alice, action: 'fact.insert' }] });
      await expectCode(
        store().audit.append({
          entries: [
            { id: t.id('y'), scope: t.alice, action: 'fact.insert' },
            { id: t.id('x'), scope: t.alice, action: 'fact.insert' },
          ],
        }),
        'conflict',
      );
      expect((await store().audit.list({ scope: t.alice })).items.map((e) => e.id)).toEqual(t.ids('x'));
    });
  });
}
