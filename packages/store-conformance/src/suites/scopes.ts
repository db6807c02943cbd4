import { type Scope, type Store, scopeColumns, scopeDepth, scopeKey } from '@strata-memory/core/store';
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

/** Every page of `scopes.list` at `scope` (of the whole store without one). */
async function listAll(store: () => Store, scope: Scope | undefined, limit?: number) {
  return allPages((cursor) => store().scopes.list({ ...(scope ? { scope } : {}), limit, cursor }));
}

/** The documented order: deepest first, then level by level, an unset level before any id. */
function compareScopes(a: Scope, b: Scope): number {
  const depth = scopeDepth(b) - scopeDepth(a);
  if (depth !== 0) return depth;
  const ca = scopeColumns(a);
  const cb = scopeColumns(b);
  for (const level of ['org', 'user', 'agent', 'thread'] as const) {
    if (ca[level] !== cb[level]) return Buffer.compare(Buffer.from(ca[level]), Buffer.from(cb[level]));
  }
  return 0;
}

/** Scopes of several tenants, each kind of row somewhere, user-rooted tenants among them. */
async function severalTenants(store: Store) {
  const first = newTenant();
  const second = newTenant();
  const { scopes: a } = await spread(store, first);
  const { scopes: b } = await spread(store, second);
  const bareThread = { ...first.bareAlice, threadId: 't1' };
  await store.state.set({ scope: bareThread, key: 'k', value: 1 });
  // User-rooted scopes holding nothing but an audit entry, or a review item.
  const auditOnly = { userId: uniqueId('auditor') };
  const reviewOnly = { userId: uniqueId('reviewer'), agentId: 'triage' };
  await store.audit.append({
    entries: [{ id: first.id('aud-only'), scope: auditOnly, action: 'test.audit' }],
  });
  await store.review.add({ item: reviewItem(reviewOnly, first.id('rev-only')) });
  const expected = [...Object.values(a), ...Object.values(b), bareThread, auditOnly, reviewOnly].sort(
    compareScopes,
  );
  return { first, second, expected };
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

    it('without a scope, lists every scope of every tenant in order, each once, paging across tenants', async () => {
      const empty = await (options.createEmpty ?? options.create)();
      try {
        const { expected } = await severalTenants(empty);
        const whole = await empty.scopes.list({ limit: 1000 });
        expect(whole.nextCursor).toBeUndefined();
        expect(keys(whole.items)).toEqual(keys(expected));
        // Unset levels are left out, as in a subtree listing.
        expect(whole.items).toEqual(expected);
        for (const limit of [1, 2, 3]) {
          const paged = await listAll(() => empty, undefined, limit);
          expect(paged.pages).toBe(Math.ceil(expected.length / limit));
          expect(keys(paged.items)).toEqual(keys(expected));
        }
        expect(keys((await empty.scopes.list({})).items)).toEqual(keys(expected));
      } finally {
        await empty.close();
      }
    });

    it('lists nothing for an empty store, and nothing of a forgotten tenant', async () => {
      const empty = await (options.createEmpty ?? options.create)();
      try {
        expect(await empty.scopes.list({})).toEqual({ items: [] });
        const t = newTenant();
        await empty.state.set({ scope: t.aliceThread, key: 'k', value: 1 });
        await empty.audit.append({
          entries: [{ id: t.id('aud'), scope: t.bareAlice, action: 'test.audit' }],
        });
        expect(keys((await empty.scopes.list({})).items)).toEqual(keys([t.aliceThread, t.bareAlice]));
        await empty.forget({ scope: t.org });
        await empty.forget({ scope: t.bareAlice });
        expect(await empty.scopes.list({})).toEqual({ items: [] });
      } finally {
        await empty.close();
      }
    });

    it('without a scope, a store holding many tenants lists each of them once, in order', async () => {
      const { first, second, expected } = await severalTenants(store());
      const mine = new Set(keys(expected));
      const all = await listAll(store, undefined, 500);
      const listed = keys(all.items);
      expect(new Set(listed).size).toBe(listed.length);
      const sorted = [...all.items].sort(compareScopes);
      expect(listed).toEqual(keys(sorted));
      expect(listed.filter((key) => mine.has(key))).toEqual(keys(expected));
      // The same scopes as each tenant's own listing, in the same order.
      for (const root of [first.org, second.org]) {
        const subtree = keys((await listAll(store, root)).items);
        expect(listed.filter((key) => subtree.includes(key))).toEqual(subtree);
      }
      await expectCode(store().scopes.list({ cursor: 'not-a-cursor' }), 'invalid_input');
      await expectCode(store().scopes.list({ limit: 0 }), 'invalid_input');
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
