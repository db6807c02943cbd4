import type { ErrorCode, Store } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { expectCode, newTenant, provenance, T0, useStore, visibleCounts } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';
import { episode } from './episodes.ts';
import { fact } from './facts.ts';

type Call = (store: Store) => Promise<unknown>;

/** Runs each bad call, expecting `code`, and checks afterwards that the tenant holds nothing new. */
async function expectRejected(store: Store, code: ErrorCode, calls: Record<string, Call>, scopes: object[]) {
  const before = await Promise.all(scopes.map((scope) => visibleCounts(store, scope)));
  for (const [label, call] of Object.entries(calls)) {
    const error = await expectCode(call(store), code).catch((failure: Error) => {
      throw new Error(`${label}: ${failure.message}`);
    });
    expect(error.message.length, label).toBeGreaterThan(0);
  }
  const after = await Promise.all(scopes.map((scope) => visibleCounts(store, scope)));
  expect(after).toEqual(before);
}

export function invalidInputSuite(options: StoreConformanceOptions): void {
  describe('invalid input', () => {
    const store = useStore(options);

    it('rejects missing, empty and malformed scopes with invalid_scope, storing nothing', async () => {
      const t = newTenant();
      const bad = [{}, { orgId: '' }, { orgId: 'a\u0000b' }, { tenant: 'x' }, { userId: 42 }];
      const calls: Record<string, Call> = {};
      bad.forEach((scope, i) => {
        calls[`episodes.put #${i}`] = (s) =>
          s.episodes.put({ episodes: [episode(t.id(`bad-${i}`), scope as never, 'x')] });
        calls[`state.set #${i}`] = (s) => s.state.set({ scope: scope as never, key: 'k', value: 1 });
        calls[`episodes.list #${i}`] = (s) => s.episodes.list({ scope: scope as never });
        calls[`forget #${i}`] = (s) => s.forget({ scope: scope as never });
      });
      calls['thread without threadId'] = (s) =>
        s.threads.appendMessages({ scope: t.alice, messages: [{ role: 'user', content: 'x' }] });
      calls['missing scope'] = (s) => s.facts.find({} as never);
      await expectRejected(store(), 'invalid_scope', calls, [t.alice]);
      expect(await store().threads.list({ scope: t.alice })).toEqual({ items: [] });
    });

    it('rejects wrong types, unknown fields and out-of-range values with invalid_input, storing nothing', async () => {
      const t = newTenant();
      const calls: Record<string, Call> = {
        'text is a number': (s) => s.episodes.put({ episodes: [episode(t.id('e'), t.alice, 42 as never)] }),
        'empty text': (s) => s.episodes.put({ episodes: [episode(t.id('e'), t.alice, '')] }),
        'importance above 1': (s) =>
          s.episodes.put({ episodes: [episode(t.id('e'), t.alice, 'x', { importance: 2 })] }),
        'unknown field': (s) =>
          s.episodes.put({ episodes: [episode(t.id('e'), t.alice, 'x', { tenantId: 'evil' })] }),
        'negative time': (s) =>
          s.episodes.put({ episodes: [episode(t.id('e'), t.alice, 'x', { occurredAt: -1 })] }),
        'unknown status': (s) =>
          s.episodes.put({ episodes: [episode(t.id('e'), t.alice, 'x', { status: 'deleted' })] }),
        'empty batch': (s) => s.episodes.put({ episodes: [] }),
        'vector with a string': (s) =>
          s.episodes.put({ episodes: [episode(t.id('e'), t.alice, 'x', { embedding: [1, 'a'] })] }),
        'unknown role': (s) =>
          s.threads.appendMessages({
            scope: t.aliceThread,
            messages: [{ role: 'robot' as never, content: 'x' }],
          }),
        'negative confidence': (s) => s.facts.insert({ fact: fact(t.alice, 'k', 1, { confidence: -0.1 }) }),
        'value is not JSON': (s) => s.facts.insert({ fact: fact(t.alice, 'k', () => 1) }),
        'empty key': (s) => s.facts.insert({ fact: fact(t.alice, '   ', 1) }),
        'missing provenance': (s) =>
          s.facts.insert({ fact: { ...fact(t.alice, 'k', 1), provenance: undefined as never } }),
        'bad audit action': (s) => s.audit.append({ entries: [{ scope: t.alice, action: 'Not A Verb' }] }),
        'fractional version': (s) =>
          s.state.set({ scope: t.alice, key: 'k', value: 1, expectedVersion: 1.5 }),
        'empty node name': (s) =>
          s.graph.upsertNode({ node: { scope: t.alice, type: 'x', name: ' ', provenance } }),
        'review confidence': (s) =>
          s.review.add({
            item: { scope: t.alice, kind: 'fact', reason: 'manual', proposal: {}, confidence: 5, provenance },
          }),
        'limit zero': (s) => s.episodes.list({ scope: t.alice, limit: 0 }),
        'limit too high': (s) => s.facts.find({ scope: t.alice, limit: 1_001 }),
        'hops above the maximum': (s) => s.graph.traverse({ scope: t.alice, start: ['n'], maxHops: 7 }),
        'lease of zero': (s) => s.ledger.claim({ scope: t.alice, key: 'k', owner: 'w', leaseMs: 0 }),
        'garbage cursor': (s) => s.episodes.list({ scope: t.alice, cursor: '%%% not a cursor %%%' }),
        'not an object': (s) => s.state.get('alice' as never),
      };
      await expectRejected(store(), 'invalid_input', calls, [t.alice]);
      expect(await store().threads.get({ scope: t.aliceThread })).toBeNull();
    });

    it('rejects inputs over the documented limits with payload_too_large, storing nothing', async () => {
      const t = newTenant();
      const calls: Record<string, Call> = {
        'episode text over 200,000 characters': (s) =>
          s.episodes.put({ episodes: [episode(t.id('big'), t.alice, 'x'.repeat(200_001))] }),
        'message over 200,000 characters': (s) =>
          s.threads.appendMessages({
            scope: t.aliceThread,
            messages: [
              { role: 'user', content: 'ok' },
              { role: 'user', content: 'y'.repeat(200_001) },
            ],
          }),
        'fact value over 16 KiB': (s) => s.facts.insert({ fact: fact(t.alice, 'k', 'z'.repeat(17_000)) }),
        'metadata over 1 MB': (s) =>
          s.episodes.put({
            episodes: [episode(t.id('meta'), t.alice, 'x', { metadata: { blob: 'm'.repeat(1_000_001) } })],
          }),
        'state value over 1 MB': (s) =>
          s.state.set({ scope: t.alice, key: 'k', value: 's'.repeat(1_000_001) }),
        'batch over 1,000 items': (s) =>
          s.episodes.put({
            episodes: Array.from({ length: 1_001 }, (_, i) => episode(t.id(`b${i}`), t.alice, 'x')),
          }),
        'vector over 4,096 dimensions': (s) =>
          s.episodes.put({
            episodes: [episode(t.id('v'), t.alice, 'x', { embedding: new Array(4_097).fill(0.01) })],
          }),
        'name over 512 characters': (s) =>
          s.graph.upsertNode({ node: { scope: t.alice, type: 'x', name: 'n'.repeat(513), provenance } }),
      };
      await expectRejected(store(), 'payload_too_large', calls, [t.alice]);
      expect(await store().threads.listMessages({ scope: t.aliceThread })).toEqual([]);
    });

    it('fails a batch holding one bad item without storing the good ones', async () => {
      const t = newTenant();
      await expectCode(
        store().episodes.put({
          episodes: [
            episode(t.id('good-1'), t.alice, 'fine'),
            episode(t.id('bad'), t.alice, ''),
            episode(t.id('good-2'), t.alice, 'ok'),
          ],
        }),
        'invalid_input',
      );
      await expectCode(
        store().audit.append({
          entries: [
            { scope: t.alice, action: 'fine.action' },
            { scope: t.alice, action: 'BAD' },
          ],
        }),
        'invalid_input',
      );
      expect(await visibleCounts(store(), t.alice)).toMatchObject({ episodes: 0, audit: 0 });
    });

    it('reports unknown ids as not_found on every call that changes an item by id', async () => {
      const t = newTenant();
      const calls: Record<string, Call> = {
        'threads.update': (s) => s.threads.update({ scope: t.aliceThread, patch: { title: 'x' } }),
        'episodes.update': (s) =>
          s.episodes.update({ scope: t.alice, id: t.id('missing'), patch: { importance: 1 } }),
        'facts.update': (s) =>
          s.facts.update({ scope: t.alice, id: t.id('missing'), patch: { confidence: 1 } }),
        'facts.supersede': (s) =>
          s.facts.supersede({ scope: t.alice, id: t.id('missing'), next: { value: 1, provenance } }),
        'graph.updateNode': (s) =>
          s.graph.updateNode({ scope: t.alice, id: t.id('missing'), patch: { aliases: [] } }),
        'graph.updateEdge': (s) =>
          s.graph.updateEdge({ scope: t.alice, id: t.id('missing'), patch: { confidence: 1 } }),
        'graph.addEdge': (s) =>
          s.graph.addEdge({
            edge: { scope: t.alice, from: 'missing-a', to: 'missing-b', relation: 'r', provenance },
          }),
        'review.decide': (s) =>
          s.review.decide({ scope: t.alice, id: t.id('missing'), status: 'approved', by: 'x', at: T0 }),
      };
      await expectRejected(store(), 'not_found', calls, [t.alice]);
      expect(await store().threads.get({ scope: t.aliceThread })).toBeNull();
    });
  });
}
