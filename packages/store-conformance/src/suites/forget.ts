import type { Scope, Store } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { newTenant, provenance, T0, type Tenant, useStore, visibleCounts } from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';
import { episode } from './episodes.ts';
import { fact } from './facts.ts';
import { reviewItem } from './review.ts';

/** Writes one item of every kind at `scope` (plus a thread and two messages below it). */
async function fill(store: Store, t: Pick<Tenant, 'id'>, scope: Scope, tag: string): Promise<void> {
  const threadScope = { ...scope, threadId: `thread-${tag}` };
  await store.threads.appendMessages({
    scope: threadScope,
    messages: [
      { id: `${tag}-m1`, role: 'user', content: `hello from ${tag}`, createdAt: T0 },
      { id: `${tag}-m2`, role: 'assistant', content: 'hi', createdAt: T0 + 1 },
    ],
  });
  await store.episodes.put({
    episodes: [episode(t.id(`${tag}-ep`), scope, `episode of ${tag}`, { embedding: [1, 0] })],
  });
  await store.facts.insert({ fact: fact(scope, `key ${tag}`, tag, { id: t.id(`${tag}-fact`) }) });
  const a = await store.graph.upsertNode({
    node: { id: t.id(`${tag}-n1`), scope, type: 'entity', name: `${tag} one`, provenance },
  });
  const b = await store.graph.upsertNode({
    node: { id: t.id(`${tag}-n2`), scope, type: 'entity', name: `${tag} two`, provenance },
  });
  await store.graph.addEdge({
    edge: { id: t.id(`${tag}-e`), scope, from: a.id, to: b.id, relation: 'affects', provenance },
  });
  await store.state.set({ scope, key: `${tag}-state`, value: tag });
  await store.ledger.claim({ scope, key: `${tag}-ledger`, owner: 'w' });
  await store.review.add({ item: reviewItem(scope, t.id(`${tag}-review`)) });
  await store.audit.append({ entries: [{ id: t.id(`${tag}-audit`), scope, action: 'test.fill' }] });
}

const ONE_OF_EACH = { episodes: 1, facts: 1, nodes: 2, edges: 1, review: 1, audit: 1, state: 1, ledger: 1 };

export function forgetSuite(options: StoreConformanceOptions): void {
  describe('forget', () => {
    const store = useStore(options);

    it('erases a user’s subtree from every layer and counts what it erased', async () => {
      const t = newTenant();
      await fill(store(), t, t.org, 'org');
      await fill(store(), t, t.alice, 'alice');
      await fill(store(), t, t.aliceThread, 'alice-thread');
      await fill(store(), t, t.bob, 'bob');
      const counts = await store().forget({ scope: t.alice });
      expect(counts).toEqual({
        threads: 2,
        messages: 4,
        episodes: 2,
        facts: 2,
        nodes: 4,
        edges: 2,
        state: 2,
        ledger: 2,
        review: 2,
        audit: 2,
      });
      // Nothing of alice's is left at her scope or below: her thread sees only the org's items.
      expect(await visibleCounts(store(), t.aliceThread)).toEqual({
        ...ONE_OF_EACH,
        audit: 0,
        state: 0,
        ledger: 0,
      });
      expect(
        await store().episodes.get({ scope: t.aliceThread, ids: t.ids('alice-ep', 'alice-thread-ep') }),
      ).toEqual([]);
      expect(await store().threads.listMessages({ scope: { ...t.alice, threadId: 'thread-alice' } })).toEqual(
        [],
      );
      expect(await store().threads.list({ scope: t.alice })).toEqual({ items: [] });
      expect(await store().state.get({ scope: t.alice, key: 'alice-state' })).toBeNull();
      expect(await store().ledger.get({ scope: t.alice, key: 'alice-ledger' })).toBeNull();
      expect((await store().audit.list({ scope: t.alice })).items).toEqual([]);
      // The ancestor's and the sibling's data are untouched (the org's audit subtree holds bob's entry).
      expect(await visibleCounts(store(), t.org)).toEqual({ ...ONE_OF_EACH, audit: 2 });
      expect(await visibleCounts(store(), t.bob)).toEqual({
        ...ONE_OF_EACH,
        episodes: 2,
        facts: 2,
        nodes: 4,
        edges: 2,
        review: 2,
        audit: 1,
        state: 1,
        ledger: 1,
      });
      const bobMessages = await store().threads.listMessages({ scope: { ...t.bob, threadId: 'thread-bob' } });
      expect(bobMessages).toHaveLength(2);
    });

    it('erases a whole tenant without touching another tenant', async () => {
      const t = newTenant();
      await fill(store(), t, t.alice, 'alice');
      await fill(store(), t, t.otherOrgAlice, 'other');
      await fill(store(), t, t.bareAlice, 'bare');
      const counts = await store().forget({ scope: t.org });
      expect(counts.episodes).toBe(1);
      expect(counts.messages).toBe(2);
      expect(await visibleCounts(store(), t.alice)).toEqual({
        episodes: 0,
        facts: 0,
        nodes: 0,
        edges: 0,
        review: 0,
        audit: 0,
        state: 0,
        ledger: 0,
      });
      expect(await visibleCounts(store(), t.otherOrgAlice)).toEqual(ONE_OF_EACH);
      expect(await visibleCounts(store(), t.bareAlice)).toEqual(ONE_OF_EACH);
    });

    it('returns zero counts for a scope holding nothing', async () => {
      const t = newTenant();
      await fill(store(), t, t.bob, 'bob');
      expect(await store().forget({ scope: t.alice })).toEqual({
        threads: 0,
        messages: 0,
        episodes: 0,
        facts: 0,
        nodes: 0,
        edges: 0,
        state: 0,
        ledger: 0,
        review: 0,
        audit: 0,
      });
      expect(await visibleCounts(store(), t.bob)).toEqual({ ...ONE_OF_EACH });
    });
  });
}
