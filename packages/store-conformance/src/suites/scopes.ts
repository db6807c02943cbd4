import { type Scope, scopeKey } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import {
  allPages,
  expectCode,
  newTenant,
  provenance,
  T0,
  type Tenant,
  uniqueId,
  useStore,
} from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';
import { episode } from './episodes.ts';
import { fact } from './facts.ts';
import { reviewItem } from './review.ts';

const keys = (scopes: Scope[]) => scopes.map(scopeKey);

/** Every page of `scopes.list` at `scope`. */
async function listAll(store: () => import('@strata-memory/core').Store, scope: Scope, limit?: number) {
  return allPages((cursor) => store().scopes.list({ scope, limit, cursor }));
}

/** A tenant whose subtree holds rows of every kind, each kind at its own scope. */
async function spread(store: import('@strata-memory/core').Store, t: Tenant) {
  const orgId = t.org.orgId!;
  const alice = t.alice.userId!;
  const bob = t.bob.userId!;
  const carol = uniqueId('carol');
  const scopes = {
    org: t.org,
    alice: t.alice,
    bob: t.bob,
    carol: { orgId, userId: carol },
    aliceThread: t.aliceThread,
    aliceEdgeThread: { orgId, userId: alice, threadId: 't3' },
    alicePlanner: { orgId, userId: alice, agentId: 'planner' },
    alicePlannerThread: { orgId, userId: alice, agentId: 'planner', threadId: 't9' },
    bobJob: { orgId, userId: bob, threadId: 'job' },
  };
  await store.facts.insert({ fact: fact(scopes.org, 'rating', 'A', { id: t.id('org-fact') }) });
  await store.episodes.put({
    episodes: [episode(t.id('alice-ep'), scopes.alice, 'archived but still a row', { status: 'archived' })],
  });
  await store.threads.appendMessages({
    scope: scopes.aliceThread,
    messages: [{ id: 'm1', role: 'user', content: 'hello', createdAt: T0 }],
  });
  const a = await store.graph.upsertNode({
    node: { id: t.id('n-a'), scope: scopes.org, type: 'entity', name: 'a', provenance },
  });
  const b = await store.graph.upsertNode({
    node: { id: t.id('n-b'), scope: scopes.alicePlanner, type: 'entity', name: 'b', provenance },
  });
  await store.graph.addEdge({
    edge: {
      id: t.id('e-ab'),
      scope: scopes.aliceEdgeThread,
      from: a.id,
      to: a.id,
      relation: 'self',
      provenance,
    },
  });
  await store.state.set({ scope: scopes.bob, key: 'checkpoint', value: 1 });
  await store.ledger.claim({ scope: scopes.bobJob, key: 'msg-1', owner: 'worker' });
  await store.review.add({ item: reviewItem(scopes.alicePlannerThread, t.id('rev'), { accessLevel: 9 }) });
  await store.audit.append({ entries: [{ id: t.id('aud'), scope: scopes.carol, action: 'test.audit' }] });
  return { scopes, nodes: [a, b] };
}

export function scopesSuite(options: StoreConformanceOptions): void {
  describe('scopes', () => {
    const store = useStore(options);

    it('lists every scope of the subtree that holds a row in any sub-store, deepest first, each once', async () => {
      const t = newTenant();
      const { scopes: s } = await spread(store(), t);
      // Another tenant with alice's user id, and one rooted at her user: never listed with the org.
      await store().state.set({ scope: t.otherOrgAlice, key: 'k', value: 1 });
      await store().state.set({ scope: { ...t.bareAlice, threadId: 't1' }, key: 'k', value: 1 });

      const all = await listAll(store, t.org);
      expect(keys(all.items)).toEqual(
        keys([
          s.alicePlannerThread,
          s.aliceThread, // org, alice, '', t1
          s.aliceEdgeThread, // org, alice, '', t3
          s.alicePlanner, // org, alice, planner, ''
          s.bobJob,
          s.alice,
          s.bob,
          s.carol,
          s.org,
        ]),
      );
      // Scopes come back with their unset levels left out.
      expect(all.items.at(-1)).toEqual(t.org);
      expect(all.items[0]).toEqual(s.alicePlannerThread);

      const alices = await listAll(store, t.alice);
      expect(keys(alices.items)).toEqual(
        keys([s.alicePlannerThread, s.aliceThread, s.aliceEdgeThread, s.alicePlanner, s.alice]),
      );
      expect(keys((await listAll(store, s.alicePlanner)).items)).toEqual(
        keys([s.alicePlannerThread, s.alicePlanner]),
      );
      expect(keys((await listAll(store, t.aliceThread)).items)).toEqual(keys([t.aliceThread]));
      expect((await listAll(store, t.aliceOtherThread)).items).toEqual([]);
      expect(keys((await listAll(store, t.otherOrgAlice)).items)).toEqual(keys([t.otherOrgAlice]));
      expect(keys((await listAll(store, t.bareAlice)).items)).toEqual(
        keys([{ ...t.bareAlice, threadId: 't1' }]),
      );
    });

    it('pages through the listing in order, without gaps or repeats', async () => {
      const t = newTenant();
      const { scopes } = await spread(store(), t);
      const whole = await store().scopes.list({ scope: t.org, limit: 1000 });
      expect(whole.nextCursor).toBeUndefined();
      expect(whole.items).toHaveLength(Object.keys(scopes).length);
      const paged = await listAll(store, t.org, 2);
      expect(paged.pages).toBe(5);
      expect(keys(paged.items)).toEqual(keys(whole.items));
      await expectCode(store().scopes.list({ scope: t.org, cursor: 'not-a-cursor' }), 'invalid_input');
      await expectCode(store().scopes.list({ scope: t.org, limit: 0 }), 'invalid_input');
      await expectCode(store().scopes.list({ scope: {} }), 'invalid_scope');
    });

    it('drops a scope once its last row is gone, whichever sub-store held it', async () => {
      const t = newTenant();
      const list = async (scope: Scope) => keys((await listAll(store, scope)).items);
      await store().episodes.put({ episodes: [episode(t.id('ep'), t.aliceThread, 'one episode')] });
      await store().facts.insert({ fact: fact(t.aliceThread, 'k', 1, { id: t.id('f') }) });
      await store().threads.appendMessages({
        scope: t.aliceOtherThread,
        messages: [{ id: 'm1', role: 'user', content: 'hi', createdAt: T0 }],
      });
      await store().state.set({ scope: t.bob, key: 'k', value: 1 });
      expect(await list(t.org)).toEqual(keys([t.aliceThread, t.aliceOtherThread, t.bob]));

      await store().episodes.delete({ scope: t.aliceThread, ids: t.ids('ep') });
      expect(await list(t.alice)).toEqual(keys([t.aliceThread, t.aliceOtherThread]));
      await store().facts.delete({ scope: t.aliceThread, ids: t.ids('f') });
      expect(await list(t.alice)).toEqual(keys([t.aliceOtherThread]));
      await store().threads.delete({ scope: t.aliceOtherThread });
      expect(await list(t.alice)).toEqual([]);
      await store().state.delete({ scope: t.bob, key: 'k' });
      expect(await list(t.org)).toEqual([]);

      const { scopes: s } = await spread(store(), t);
      await store().forget({ scope: t.alice });
      expect(await list(t.alice)).toEqual([]);
      expect(await list(t.org)).toEqual(keys([s.bobJob, s.bob, s.carol, s.org]));
    });

    it('lists nothing a rolled-back transaction wrote', async ({ skip }) => {
      skip(
        !store().capabilities.transactions,
        'the store does not declare transactions; the capabilities suite checks that transaction fails with unsupported',
      );
      const t = newTenant();
      await store().state.set({ scope: t.alice, key: 'kept', value: 1 });
      const failure = new Error('undo');
      await expect(
        store().transaction(async (tx) => {
          await tx.episodes.put({ episodes: [episode(t.id('ep'), t.aliceThread, 'lost')] });
          await tx.state.set({ scope: t.bob, key: 'lost', value: 1 });
          expect(keys((await tx.scopes.list({ scope: t.org })).items)).toEqual(
            keys([t.aliceThread, t.alice, t.bob]),
          );
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(keys((await listAll(store, t.org)).items)).toEqual(keys([t.alice]));
    });
  });
}
