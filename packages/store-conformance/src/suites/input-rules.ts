import { randomInt } from 'node:crypto';
import type { ErrorCode, Scope, Store } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { expectCode, newTenant, provenance, T0, useStore, visibleCounts } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';
import { episode } from './episodes.ts';
import { fact } from './facts.ts';

/**
 * One rule for every store: what one store accepts, every store accepts and returns unchanged;
 * what one cannot hold, all reject the same way (core checks it before any driver runs).
 */

/** The last instant a JavaScript Date can hold. */
const MAX_TIME = 8.64e15;

/** `count` random CJK ideographs (3 bytes each in UTF-8): text no index can compress. */
function ideographs(count: number): string {
  return Array.from({ length: count }, () => String.fromCodePoint(0x4e00 + randomInt(0x5000))).join('');
}

/** An id of exactly `bytes` bytes of UTF-8, unique to this run: random ideographs, padded with ASCII. */
function idOfBytes(bytes: number): string {
  return ideographs(Math.floor(bytes / 3)) + 'x'.repeat(bytes % 3);
}

/** `{ a: { a: … 1 } }`, `levels` objects deep. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

function circular(): unknown {
  const value: Record<string, unknown> = { name: 'loop' };
  value.self = value;
  return value;
}

type Call = (store: Store) => Promise<unknown>;

async function expectAllRejected(store: Store, code: ErrorCode, calls: Record<string, Call>, scope: Scope) {
  const before = await visibleCounts(store, scope);
  for (const [label, call] of Object.entries(calls)) {
    await expectCode(call(store), code).catch((failure: Error) => {
      throw new Error(`${label}: ${failure.message}`);
    });
  }
  expect(await visibleCounts(store, scope)).toEqual(before);
}

export function inputRulesSuite(options: StoreConformanceOptions): void {
  describe('input rules shared by every store', () => {
    const store = useStore(options);

    it('holds scope ids and item ids of 256 bytes of UTF-8 at every level, and rejects 257', async () => {
      const scope = { orgId: idOfBytes(256), userId: idOfBytes(256), agentId: idOfBytes(256) };
      const thread = { ...scope, threadId: idOfBytes(256) };
      const messageId = idOfBytes(256);
      const episodeId = idOfBytes(256);
      await store().threads.appendMessages({
        scope: thread,
        messages: [{ id: messageId, role: 'user', content: 'lead time is 45 days' }],
      });
      await store().episodes.put({ episodes: [episode(episodeId, thread, 'lead time is 45 days')] });
      await store().facts.insert({ fact: fact(thread, 'lead time', '45 days') });
      await store().graph.upsertNode({
        node: { scope: thread, type: 'supplier', name: 'Supplier X', provenance },
      });
      await store().state.set({ scope: thread, key: 'cursor', value: 7 });
      await store().ledger.claim({ scope: thread, key: 'msg-1', owner: idOfBytes(256) });
      await store().audit.append({
        entries: [{ scope: thread, action: 'test.write', subjectId: episodeId }],
      });

      expect((await store().threads.listMessages({ scope: thread })).map((m) => m.id)).toEqual([messageId]);
      const [stored] = await store().episodes.get({ scope: thread, ids: [episodeId] });
      expect(stored?.scope).toEqual(thread);
      expect((await store().facts.find({ scope: thread })).items.map((f) => f.scope)).toEqual([thread]);
      expect((await store().state.get({ scope: thread, key: 'cursor' }))?.value).toBe(7);
      expect(await visibleCounts(store(), thread)).toMatchObject({ episodes: 1, facts: 1, audit: 1 });

      const t = newTenant();
      const tooLong = idOfBytes(257);
      await expectAllRejected(
        store(),
        'payload_too_large',
        {
          'scope id': (s) => s.state.set({ scope: { ...t.alice, userId: tooLong }, key: 'k', value: 1 }),
          'thread id': (s) =>
            s.threads.appendMessages({
              scope: { ...t.alice, threadId: tooLong },
              messages: [{ role: 'user', content: 'x' }],
            }),
          'episode id': (s) => s.episodes.put({ episodes: [episode(tooLong, t.alice, 'x')] }),
        },
        t.alice,
      );
    });

    it('rejects NUL characters and lone surrogates in every text, name, id and JSON string, storing nothing', async () => {
      const t = newTenant();
      for (const bad of ['a\u0000b', 'a\ud800b', '\udfff']) {
        await expectAllRejected(
          store(),
          'invalid_input',
          {
            'episode text': (s) => s.episodes.put({ episodes: [episode(t.id('e'), t.alice, `lead ${bad}`)] }),
            'episode speaker': (s) =>
              s.episodes.put({ episodes: [episode(t.id('e'), t.alice, 'x', { speaker: bad })] }),
            'message content': (s) =>
              s.threads.appendMessages({ scope: t.aliceThread, messages: [{ role: 'user', content: bad }] }),
            'metadata value': (s) =>
              s.episodes.put({ episodes: [episode(t.id('e'), t.alice, 'x', { metadata: { note: bad } })] }),
            'metadata key': (s) =>
              s.episodes.put({ episodes: [episode(t.id('e'), t.alice, 'x', { metadata: { [bad]: 1 } })] }),
            'fact value': (s) => s.facts.insert({ fact: fact(t.alice, 'k', { text: bad }) }),
            'fact entity': (s) => s.facts.insert({ fact: fact(t.alice, 'k', 1, { entityId: `x${bad}` }) }),
            'node name': (s) =>
              s.graph.upsertNode({ node: { scope: t.alice, type: 'x', name: `n${bad}`, provenance } }),
            'state value': (s) => s.state.set({ scope: t.alice, key: 'k', value: [bad] }),
            'state key': (s) => s.state.set({ scope: t.alice, key: `k${bad}`, value: 1 }),
            'keyword query': (s) => s.episodes.searchKeyword({ scope: t.alice, query: `lead ${bad}` }),
          },
          t.alice,
        );
        await expectAllRejected(
          store(),
          'invalid_scope',
          {
            'scope id': (s) => s.state.set({ scope: { ...t.alice, userId: `u${bad}` }, key: 'k', value: 1 }),
          },
          t.alice,
        );
      }
      expect(await store().threads.listMessages({ scope: t.aliceThread })).toEqual([]);
    });

    it('keeps times up to the last Date exactly and rejects any later one', async () => {
      const t = newTenant();
      await store().episodes.put({
        episodes: [
          episode(t.id('last'), t.alice, 'far future', { occurredAt: MAX_TIME, createdAt: MAX_TIME }),
        ],
      });
      const [last] = await store().episodes.get({ scope: t.alice, ids: [t.id('last')] });
      expect([last?.occurredAt, last?.createdAt]).toEqual([MAX_TIME, MAX_TIME]);
      const listed = await store().episodes.list({ scope: t.alice, since: MAX_TIME, until: MAX_TIME });
      expect(listed.items.map((e) => e.id)).toEqual([t.id('last')]);

      for (const time of [MAX_TIME + 1, 9e15, Number.MAX_SAFE_INTEGER]) {
        await expectAllRejected(
          store(),
          'invalid_input',
          {
            [`episode at ${time}`]: (s) =>
              s.episodes.put({ episodes: [episode(t.id('late'), t.alice, 'x', { occurredAt: time })] }),
            [`message at ${time}`]: (s) =>
              s.threads.appendMessages({
                scope: t.aliceThread,
                messages: [{ role: 'user', content: 'x', createdAt: time }],
              }),
            [`fact valid from ${time}`]: (s) =>
              s.facts.insert({ fact: fact(t.alice, 'k', 1, { validFrom: time }) }),
            [`state at ${time}`]: (s) => s.state.set({ scope: t.alice, key: 'k', value: 1, at: time }),
            [`listing until ${time}`]: (s) => s.episodes.list({ scope: t.alice, until: time }),
            [`audit since ${time}`]: (s) => s.audit.list({ scope: t.alice, since: time }),
          },
          t.alice,
        );
      }
    });

    it('rejects JSON nested deeper than 64 levels or circular with invalid_input, and keeps 64 levels', async () => {
      const t = newTenant();
      for (const value of [nested(65), nested(10_000), circular()]) {
        await expectAllRejected(
          store(),
          'invalid_input',
          {
            'state value': (s) => s.state.set({ scope: t.alice, key: 'k', value: value as never }),
            'fact value': (s) => s.facts.insert({ fact: fact(t.alice, 'k', value) }),
            metadata: (s) =>
              s.episodes.put({ episodes: [episode(t.id('e'), t.alice, 'x', { metadata: { value } })] }),
            'node properties': (s) =>
              s.graph.upsertNode({
                node: { scope: t.alice, type: 'x', name: 'n', properties: { value } as never, provenance },
              }),
          },
          t.alice,
        );
      }
      expect(await store().state.get({ scope: t.alice, key: 'k' })).toBeNull();
      await store().state.set({ scope: t.alice, key: 'deep', value: nested(64) as never, at: T0 });
      expect((await store().state.get({ scope: t.alice, key: 'deep' }))?.value).toEqual(nested(64));
    });
  });
}
