import type { JsonValue, MessageRecord, Metadata, Scope, ThreadRecord } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { allPages, expectCode, MINUTE, newTenant, T0, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';

/**
 * `threads.list`'s filters, orders, paging and totals, and `threads.findMessages` across threads,
 * which adapters translate their own listings to (Mastra's `listThreads` and `listMessages`): the
 * driver does the work in its query.
 */
export function threadListingSuite(options: StoreConformanceOptions): void {
  describe('threads: filtered, ordered and paged listing', () => {
    const store = useStore(options);

    /** A thread with its own creation and update times (minutes after T0) and metadata. */
    const thread = (scope: Scope, created: number, updated: number, metadata: Metadata = {}) =>
      store().threads.restore({
        thread: { scope, metadata, createdAt: T0 + created * MINUTE, updatedAt: T0 + updated * MINUTE },
        messages: [],
      });
    const names = (threads: ThreadRecord[]) => threads.map((t) => t.scope.threadId);

    it('lists a subtree, never another tenant, with levels and metadata filters', async () => {
      const t = newTenant();
      await thread({ ...t.alice, threadId: 'a1' }, 1, 1, { project: 'roof', n: 1 });
      await thread({ ...t.alice, threadId: 'a2' }, 2, 2, { project: 'roof', n: '1' });
      await thread({ ...t.alice, agentId: 'helper', threadId: 'a3' }, 3, 3, { project: 'roof' });
      await thread({ ...t.bob, threadId: 'b1' }, 4, 4, { project: 'roof', tags: { x: [1, 2] } });
      await thread({ ...t.org, threadId: 'o1' }, 5, 5, { project: 'roof' });
      await thread({ ...t.otherOrgAlice, threadId: 'a1' }, 6, 6, { project: 'roof' });
      await thread({ ...t.bareAlice, threadId: 'a1' }, 7, 7, { project: 'roof' });
      const list = async (scope: Scope, extra: Record<string, unknown> = {}) =>
        names((await store().threads.list({ scope, ...extra })).items);

      expect(await list(t.alice)).toEqual(['a3', 'a2', 'a1']);
      expect(await list(t.alice, { levels: { agentId: false } })).toEqual(['a2', 'a1']);
      expect(await list(t.alice, { levels: { agentId: true } })).toEqual(['a3']);
      expect(await list(t.org, { levels: { userId: true, agentId: false } })).toEqual(['b1', 'a2', 'a1']);
      expect(await list(t.org, { levels: { userId: false } })).toEqual(['o1']);
      expect(await list(t.bareAlice, { levels: { orgId: false } })).toEqual(['a1']);
      expect(await list(t.otherOrgAlice)).toEqual(['a1']);

      expect(await list(t.org, { metadata: { project: 'roof' } })).toEqual(['o1', 'b1', 'a3', 'a2', 'a1']);
      expect(await list(t.alice, { metadata: { n: 1 } })).toEqual(['a1']);
      expect(await list(t.alice, { metadata: { n: '1' } })).toEqual(['a2']);
      expect(await list(t.alice, { metadata: { project: 'roof', n: 1 } })).toEqual(['a1']);
      expect(await list(t.org, { metadata: { tags: { x: [1, 2] } } })).toEqual(['b1']);
      expect(await list(t.org, { metadata: { tags: { x: [2, 1] } } })).toEqual([]);
      expect(await list(t.org, { metadata: { missing: null } })).toEqual([]);
      // Values are compared, never read as operators.
      expect(await list(t.org, { metadata: { n: { $gt: 0 } } })).toEqual([]);
    });

    it('orders by either time in either direction, ties broken by scope in the same direction', async () => {
      const t = newTenant();
      const times: Array<[string, number, number]> = [
        ['t3', 1, 9],
        ['t1', 2, 8],
        ['t4', 2, 8],
        ['t2', 2, 7],
        ['t0', 3, 8],
      ];
      for (const [id, created, updated] of times)
        await thread({ ...t.alice, threadId: id }, created, updated);
      const list = async (order?: { field: 'createdAt' | 'updatedAt'; direction: 'asc' | 'desc' }) =>
        names((await store().threads.list({ scope: t.alice, ...(order ? { order } : {}) })).items);

      expect(await list({ field: 'createdAt', direction: 'asc' })).toEqual(['t3', 't1', 't2', 't4', 't0']);
      expect(await list({ field: 'createdAt', direction: 'desc' })).toEqual(['t0', 't4', 't2', 't1', 't3']);
      expect(await list({ field: 'updatedAt', direction: 'asc' })).toEqual(['t2', 't0', 't1', 't4', 't3']);
      expect(await list({ field: 'updatedAt', direction: 'desc' })).toEqual(['t3', 't4', 't1', 't0', 't2']);
      expect(await list()).toEqual(await list({ field: 'updatedAt', direction: 'desc' }));
    });

    it('pages by offset or cursor alike, and counts every match whatever the page', async () => {
      const t = newTenant();
      for (let i = 0; i < 11; i++) {
        await thread({ ...t.alice, threadId: `t${String(i).padStart(2, '0')}` }, i % 4, i, {
          even: i % 2 === 0,
        });
      }
      await thread({ ...t.bob, threadId: 'elsewhere' }, 0, 0, { even: true });
      const args = {
        scope: t.alice,
        order: { field: 'createdAt', direction: 'desc' },
        metadata: { even: true },
      } as const;
      const everything = names((await store().threads.list({ ...args, limit: 100 })).items);
      expect(everything).toEqual(['t10', 't06', 't02', 't08', 't04', 't00']);

      const byOffset: ThreadRecord[] = [];
      for (let offset = 0; offset < 6; offset += 4) {
        const page = await store().threads.list({ ...args, limit: 4, offset, withTotal: true });
        expect(page.total).toBe(6);
        byOffset.push(...page.items);
      }
      expect(names(byOffset)).toEqual(everything);
      const paged = await allPages((cursor) =>
        store().threads.list({ ...args, limit: 4, ...(cursor ? { cursor } : {}) }),
      );
      expect([names(paged.items), paged.pages]).toEqual([everything, 2]);
      const tail = await store().threads.list({ ...args, limit: 4, offset: 4, withTotal: true });
      expect([names(tail.items), tail.nextCursor, tail.total]).toEqual([['t04', 't00'], undefined, 6]);
      const beyond = await store().threads.list({ ...args, offset: 50, withTotal: true });
      expect([beyond.items, beyond.total]).toEqual([[], 6]);
      expect((await store().threads.list({ ...args, limit: 4 })).total).toBeUndefined();
    });

    it('refuses a cursor with an offset, a cursor of another order, and bad order, levels or metadata', async () => {
      const t = newTenant();
      await thread({ ...t.alice, threadId: 'a' }, 1, 1);
      await thread({ ...t.alice, threadId: 'b' }, 2, 2);
      const first = await store().threads.list({ scope: t.alice, limit: 1 });
      await expectCode(
        store().threads.list({ scope: t.alice, offset: 1, cursor: first.nextCursor! }),
        'invalid_input',
      );
      await expectCode(
        store().threads.list({
          scope: t.alice,
          order: { field: 'createdAt', direction: 'asc' },
          cursor: first.nextCursor!,
        }),
        'invalid_input',
      );
      const bad: unknown[] = [
        { order: { field: 'title', direction: 'asc' } },
        { order: { field: 'createdAt', direction: 'ASC' } },
        { order: { field: 'createdAt' } },
        { levels: { threadId: true } },
        { levels: { userId: 'yes' } },
        { metadata: 'roof' },
        { metadata: { '': 1 } },
        { offset: -1 },
        { withTotal: 'yes' },
      ];
      for (const extra of bad) {
        await expectCode(store().threads.list({ scope: t.alice, ...(extra as object) }), 'invalid_input');
      }
    });
  });

  describe('threads: messages found across threads', () => {
    const store = useStore(options);

    /** A thread whose messages are created at the given minutes after T0, with metadata. */
    const messages = (scope: Scope, at: Array<[number, Metadata?]>) =>
      store().threads.restore({
        thread: { scope, metadata: {}, createdAt: T0, updatedAt: T0 },
        messages: at.map(([minute, metadata], i) => ({
          id: `m${i + 1}`,
          seq: i + 1,
          role: 'user' as const,
          content: `${scope.threadId} ${i + 1}`,
          createdAt: T0 + minute * MINUTE,
          metadata: metadata ?? {},
        })),
      });
    const texts = (items: MessageRecord[]) => items.map((m) => m.content);

    it('reads the listed threads only, by time then thread then seq, in either direction', async () => {
      const t = newTenant();
      await messages(t.aliceThread, [[1], [3], [3], [5]]);
      await messages(t.aliceOtherThread, [[2], [3], [6]]);
      await messages(t.bobThread, [[0], [3]]);
      await messages({ ...t.otherOrgAlice, threadId: 't1' }, [[3]]);
      const find = async (extra: Record<string, unknown> = {}) =>
        texts(
          (await store().threads.findMessages({ threads: [t.aliceThread, t.aliceOtherThread], ...extra }))
            .items,
        );
      const ascending = ['t1 1', 't2 1', 't1 2', 't1 3', 't2 2', 't1 4', 't2 3'];
      expect(await find()).toEqual(ascending);
      expect(await find({ order: 'desc' })).toEqual([...ascending].reverse());
      expect(
        texts(
          (await store().threads.findMessages({ threads: [t.bobThread, { ...t.alice, threadId: 'none' }] }))
            .items,
        ),
      ).toEqual(['t1 1', 't1 2']);
      const found = await store().threads.findMessages({ threads: [t.aliceThread, t.aliceThread] });
      expect(found.items.map((m) => [m.scope, m.seq])).toEqual(
        [1, 2, 3, 4].map((seq) => [t.aliceThread, seq]),
      );
    });

    it('filters by time (inclusive) and metadata, top level or at a path', async () => {
      const t = newTenant();
      await messages(t.aliceThread, [
        [1, { kind: 'note', app: { metadata: { tag: 'a', n: 1 } } }],
        [2, { kind: 'note', app: { metadata: { tag: 'b' } } }],
        [3, { kind: 'todo', app: { metadata: { tag: 'a', n: '1' } } }],
        [4, { kind: 'note', app: 'not an object' }],
        [5, {}],
      ]);
      const find = async (extra: Record<string, unknown>) =>
        texts((await store().threads.findMessages({ threads: [t.aliceThread], ...extra })).items);
      expect(await find({ since: T0 + 2 * MINUTE, until: T0 + 4 * MINUTE })).toEqual([
        't1 2',
        't1 3',
        't1 4',
      ]);
      expect(await find({ since: T0 + 2 * MINUTE + 1, until: T0 + 4 * MINUTE - 1 })).toEqual(['t1 3']);
      expect(await find({ metadata: { kind: 'note' } })).toEqual(['t1 1', 't1 2', 't1 4']);
      expect(await find({ metadata: { tag: 'a' }, metadataAt: ['app', 'metadata'] })).toEqual([
        't1 1',
        't1 3',
      ]);
      expect(await find({ metadata: { tag: 'a', n: 1 }, metadataAt: ['app', 'metadata'] })).toEqual(['t1 1']);
      expect(await find({ metadata: { kind: 'note' }, metadataAt: ['app'] })).toEqual([]);
      expect(await find({ metadata: { tag: 'a' }, metadataAt: ['missing'] })).toEqual([]);
      expect(await find({ metadata: { kind: 'note' }, since: T0 + 2 * MINUTE })).toEqual(['t1 2', 't1 4']);
    });

    it('filters by role', async () => {
      const t = newTenant();
      const roles = ['system', 'user', 'assistant', 'tool', 'user'] as const;
      await store().threads.restore({
        thread: { scope: t.aliceThread, metadata: {}, createdAt: T0, updatedAt: T0 },
        messages: roles.map((role, i) => ({
          id: `m${i + 1}`,
          seq: i + 1,
          role,
          content: `${role} ${i + 1}`,
          createdAt: T0 + i * MINUTE,
          metadata: {},
        })),
      });
      const find = async (extra: Record<string, unknown>) =>
        texts((await store().threads.findMessages({ threads: [t.aliceThread], ...extra })).items);
      expect(await find({ roles: ['user', 'assistant'] })).toEqual(['user 2', 'assistant 3', 'user 5']);
      expect(await find({ roles: ['tool'], withTotal: true })).toEqual(['tool 4']);
      expect(await find({})).toHaveLength(5);
      await expectCode(
        store().threads.findMessages({ threads: [t.aliceThread], roles: [] }),
        'invalid_input',
      );
    });

    it('pages by offset and counts every match', async () => {
      const t = newTenant();
      await messages(
        t.aliceThread,
        Array.from({ length: 9 }, (_, i): [number, Metadata] => [
          i,
          { odd: i % 2 === 1 } as Record<string, JsonValue>,
        ]),
      );
      const args = { threads: [t.aliceThread], metadata: { odd: false }, order: 'desc' as const };
      const pages: string[][] = [];
      for (let offset = 0; offset < 5; offset += 2) {
        const page = await store().threads.findMessages({ ...args, limit: 2, offset, withTotal: true });
        expect([page.total, page.nextCursor]).toEqual([5, undefined]);
        pages.push(texts(page.items));
      }
      expect(pages).toEqual([['t1 9', 't1 7'], ['t1 5', 't1 3'], ['t1 1']]);
      expect((await store().threads.findMessages({ ...args, limit: 2 })).total).toBeUndefined();
    });

    it('refuses bad arguments', async () => {
      const t = newTenant();
      const bad: unknown[] = [
        { threads: [] },
        { threads: [t.alice] },
        { threads: [t.aliceThread], metadataAt: [] },
        { threads: [t.aliceThread], metadataAt: ['a.b'] },
        { threads: [t.aliceThread], metadataAt: ["it's"] },
        { threads: [t.aliceThread], order: 'newest' },
        { threads: [t.aliceThread], since: -1 },
        { threads: [t.aliceThread], offset: 1.5 },
        { threads: [t.aliceThread], cursor: 'x' },
      ];
      for (const args of bad) {
        await expectCode(store().threads.findMessages(args as never), 'invalid_input');
      }
      const many = Array.from({ length: 101 }, (_, i) => ({ ...t.alice, threadId: `t${i}` }));
      await expectCode(store().threads.findMessages({ threads: many }), 'payload_too_large');
    });
  });
}
