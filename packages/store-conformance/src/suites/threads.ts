import { describe, expect, it } from 'vitest';
import { allPages, expectCode, MINUTE, newTenant, sorted, T0, useStore } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';

export function threadsSuite(options: StoreConformanceOptions): void {
  describe('threads and messages', () => {
    const store = useStore(options);

    it('creates a thread on upsert and finds it at exactly its scope only', async () => {
      const t = newTenant();
      const created = await store().threads.upsert({
        scope: t.aliceThread,
        title: 'Planning',
        metadata: { channel: 'web' },
        at: T0,
      });
      expect(created).toMatchObject({
        scope: t.aliceThread,
        title: 'Planning',
        metadata: { channel: 'web' },
        createdAt: T0,
        updatedAt: T0,
      });
      expect(await store().threads.get({ scope: t.aliceThread })).toEqual(created);
      // Same thread id under a sibling user, or in another tenant: a different (missing) thread.
      expect(await store().threads.get({ scope: t.bobThread })).toBeNull();
      expect(await store().threads.get({ scope: { ...t.otherOrgAlice, threadId: 't1' } })).toBeNull();
    });

    it('merges metadata, replaces the title and keeps createdAt when upserted again', async () => {
      const t = newTenant();
      await store().threads.upsert({ scope: t.aliceThread, title: 'A', metadata: { a: 1, b: 1 }, at: T0 });
      const again = await store().threads.upsert({
        scope: t.aliceThread,
        title: 'B',
        metadata: { b: 2, c: 3 },
        at: T0 + MINUTE,
      });
      expect(again).toMatchObject({
        title: 'B',
        metadata: { a: 1, b: 2, c: 3 },
        createdAt: T0,
        updatedAt: T0 + MINUTE,
      });
    });

    it('appends messages with seq 1..n in order, creating the thread, and round-trips every field', async () => {
      const t = newTenant();
      const appended = await store().threads.appendMessages({
        scope: t.aliceThread,
        messages: [
          {
            id: 'm1',
            role: 'user',
            content: 'Hello',
            name: 'Alice',
            createdAt: T0,
            metadata: { lang: 'en' },
          },
          {
            id: 'm2',
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'call-1', name: 'lookup', input: { q: 'x', n: [1, 2] } }],
            createdAt: T0 + 1,
          },
          { id: 'm3', role: 'tool', content: '{"ok":true}', toolCallId: 'call-1', createdAt: T0 + 2 },
        ],
      });
      expect(appended.map((m) => [m.id, m.seq])).toEqual([
        ['m1', 1],
        ['m2', 2],
        ['m3', 3],
      ]);
      const listed = await store().threads.listMessages({ scope: t.aliceThread });
      expect(listed).toEqual(appended);
      expect(listed[0]).toEqual({
        id: 'm1',
        scope: t.aliceThread,
        seq: 1,
        role: 'user',
        content: 'Hello',
        name: 'Alice',
        createdAt: T0,
        metadata: { lang: 'en' },
      });
      expect(listed[1]!.toolCalls).toEqual([{ id: 'call-1', name: 'lookup', input: { q: 'x', n: [1, 2] } }]);
      expect(listed[2]!.toolCallId).toBe('call-1');
      expect(await store().threads.get({ scope: t.aliceThread })).not.toBeNull();
    });

    it('does not append a message id twice: the stored record comes back and seq continues', async () => {
      const t = newTenant();
      const [first] = await store().threads.appendMessages({
        scope: t.aliceThread,
        messages: [{ id: 'm1', role: 'user', content: 'original', createdAt: T0 }],
      });
      const again = await store().threads.appendMessages({
        scope: t.aliceThread,
        messages: [
          { id: 'm1', role: 'user', content: 'retried with other content', createdAt: T0 + 5 },
          { id: 'm2', role: 'assistant', content: 'reply', createdAt: T0 + 6 },
        ],
      });
      expect(again[0]).toEqual(first);
      expect(again[1]!.seq).toBe(2);
      const listed = await store().threads.listMessages({ scope: t.aliceThread });
      expect(listed.map((m) => [m.id, m.seq, m.content])).toEqual([
        ['m1', 1, 'original'],
        ['m2', 2, 'reply'],
      ]);
    });

    it('keeps seq unique and contiguous under 50 concurrent appends to one thread', async () => {
      const t = newTenant();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          store().threads.appendMessages({
            scope: t.aliceThread,
            messages: [{ id: `m${i}`, role: 'user', content: `message ${i}`, createdAt: T0 + i }],
          }),
        ),
      );
      const seqs = results.map((r) => r[0]!.seq).sort((a, b) => a - b);
      expect(seqs).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      const listed = await store().threads.listMessages({ scope: t.aliceThread, limit: 100 });
      expect(listed.map((m) => m.seq)).toEqual(seqs);
      expect(new Set(listed.map((m) => m.id)).size).toBe(50);
    });

    it('lists messages by seq: ascending, the last n descending, and between bounds', async () => {
      const t = newTenant();
      await store().threads.appendMessages({
        scope: t.aliceThread,
        messages: Array.from({ length: 10 }, (_, i) => ({
          id: `m${i + 1}`,
          role: 'user' as const,
          content: `#${i + 1}`,
          createdAt: T0 + i,
        })),
      });
      const seqs = async (args: Record<string, unknown>) =>
        (await store().threads.listMessages({ scope: t.aliceThread, ...args })).map((m) => m.seq);
      expect(await seqs({ limit: 3 })).toEqual([1, 2, 3]);
      expect(await seqs({ limit: 3, order: 'desc' })).toEqual([10, 9, 8]);
      expect(await seqs({ afterSeq: 4, beforeSeq: 8 })).toEqual([5, 6, 7]);
      expect(await seqs({ beforeSeq: 5, order: 'desc', limit: 2 })).toEqual([4, 3]);
      expect(await store().threads.listMessages({ scope: t.aliceOtherThread })).toEqual([]);
    });

    it('gets and deletes messages by id, ignoring unknown ids and leaving the rest', async () => {
      const t = newTenant();
      await store().threads.appendMessages({
        scope: t.aliceThread,
        messages: ['a', 'b', 'c'].map((id, i) => ({
          id,
          role: 'user' as const,
          content: id,
          createdAt: T0 + i,
        })),
      });
      const got = await store().threads.getMessages({ scope: t.aliceThread, ids: ['c', 'nope', 'a'] });
      expect(sorted(got.map((m) => m.id))).toEqual(['a', 'c']);
      expect(await store().threads.getMessages({ scope: t.bobThread, ids: ['a'] })).toEqual([]);
      expect(await store().threads.deleteMessages({ scope: t.bobThread, ids: ['a'] })).toEqual({
        deleted: 0,
      });
      expect(await store().threads.deleteMessages({ scope: t.aliceThread, ids: ['a', 'nope'] })).toEqual({
        deleted: 1,
      });
      const left = await store().threads.listMessages({ scope: t.aliceThread });
      expect(left.map((m) => [m.id, m.seq])).toEqual([
        ['b', 2],
        ['c', 3],
      ]);
    });

    it('lists the threads of a subtree, most recently updated first, across pages', async () => {
      const t = newTenant();
      for (let i = 0; i < 5; i++) {
        await store().threads.upsert({ scope: { ...t.alice, threadId: `a${i}` }, at: T0 + i * MINUTE });
      }
      await store().threads.upsert({ scope: t.bobThread, at: T0 + 10 * MINUTE });
      const aliceThreads = await allPages((cursor) =>
        store().threads.list({ scope: t.alice, limit: 2, cursor }),
      );
      expect(aliceThreads.pages).toBe(3);
      expect(aliceThreads.items.map((x) => x.scope.threadId)).toEqual(['a4', 'a3', 'a2', 'a1', 'a0']);
      const orgThreads = await store().threads.list({ scope: t.org });
      expect(orgThreads.items.map((x) => x.scope.threadId)).toEqual(['t1', 'a4', 'a3', 'a2', 'a1', 'a0']);
      expect((await store().threads.list({ scope: t.bob })).items.map((x) => x.scope.threadId)).toEqual([
        't1',
      ]);
      expect((await store().threads.list({ scope: t.otherOrgAlice })).items).toEqual([]);
    });

    it('updates summary and metadata of an existing thread; an unknown thread is not_found', async () => {
      const t = newTenant();
      await store().threads.upsert({ scope: t.aliceThread, metadata: { a: 1 }, at: T0 });
      const updated = await store().threads.update({
        scope: t.aliceThread,
        patch: { summary: 'Alice asked about invoices.', summarizedThroughSeq: 12, metadata: { b: 2 } },
        at: T0 + MINUTE,
      });
      expect(updated).toMatchObject({
        summary: 'Alice asked about invoices.',
        summarizedThroughSeq: 12,
        metadata: { a: 1, b: 2 },
        updatedAt: T0 + MINUTE,
      });
      expect(await store().threads.get({ scope: t.aliceThread })).toEqual(updated);
      await expectCode(store().threads.update({ scope: t.bobThread, patch: { title: 'x' } }), 'not_found');
      expect(await store().threads.get({ scope: t.bobThread })).toBeNull();
    });

    it('deletes a thread with its messages', async () => {
      const t = newTenant();
      await store().threads.appendMessages({
        scope: t.aliceThread,
        messages: [{ id: 'm1', role: 'user', content: 'x', createdAt: T0 }],
      });
      await store().threads.appendMessages({
        scope: t.aliceOtherThread,
        messages: [{ id: 'm1', role: 'user', content: 'kept', createdAt: T0 }],
      });
      expect(await store().threads.delete({ scope: t.aliceThread })).toEqual({ deleted: true });
      expect(await store().threads.delete({ scope: t.aliceThread })).toEqual({ deleted: false });
      expect(await store().threads.get({ scope: t.aliceThread })).toBeNull();
      expect(await store().threads.listMessages({ scope: t.aliceThread })).toEqual([]);
      expect(
        (await store().threads.listMessages({ scope: t.aliceOtherThread })).map((m) => m.content),
      ).toEqual(['kept']);
      // A recreated thread starts again from seq 1.
      const [again] = await store().threads.appendMessages({
        scope: t.aliceThread,
        messages: [{ id: 'm9', role: 'user', content: 'new', createdAt: T0 }],
      });
      expect(again!.seq).toBe(1);
    });

    it('looks a thread id up in every scope that uses it, and keeps those threads apart', async () => {
      const t = newTenant();
      const threadId = `shared-${t.org.orgId}`;
      await store().threads.appendMessages({
        scope: { ...t.alice, threadId },
        messages: [{ id: 'm1', role: 'user', content: 'from alice', createdAt: T0 }],
      });
      await store().threads.appendMessages({
        scope: { ...t.bob, threadId },
        messages: [{ id: 'm1', role: 'user', content: 'from bob', createdAt: T0 }],
      });
      const found = await store().threads.lookup({ threadId });
      expect(sorted(found.map((x) => x.scope.userId))).toEqual(sorted([t.alice.userId, t.bob.userId]));
      const aliceMessages = await store().threads.listMessages({ scope: { ...t.alice, threadId } });
      expect(aliceMessages.map((m) => [m.content, m.seq])).toEqual([['from alice', 1]]);
      expect(await store().threads.lookup({ threadId: `missing-${threadId}` })).toEqual([]);
    });
  });
}
