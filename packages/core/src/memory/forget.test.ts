import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import type { Scope } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';
import { createMemory } from './create-memory.ts';

const org: Scope = { orgId: 'acme' };
const maria: Scope = { orgId: 'acme', userId: 'maria' };
const mariaThread: Scope = { ...maria, threadId: 't1' };
const bob: Scope = { orgId: 'acme', userId: 'bob' };

function setup() {
  const clock = manualClock();
  const store = memoryStore();
  return { clock, store, memory: createMemory({ store, clock }) };
}

async function seed(memory: ReturnType<typeof setup>['memory']) {
  for (const scope of [mariaThread, { ...bob, threadId: 't1' }]) {
    await memory.observe(scope, [
      { role: 'user', content: "Supplier X's lead time is 45 days." },
      { role: 'user', content: 'Billing depends on Postgres.' },
      { role: 'user', content: 'What if we extended terms to 90 days?' },
    ]);
    await memory.state.set(scope, 'cursor', 7);
    await memory.ledger.claim(scope, 'msg_1');
  }
}

describe('forget(scope)', () => {
  it("erases every layer of a user's data, leaves siblings, and records counts where they survive", async () => {
    const { memory, store } = setup();
    await seed(memory);
    const counts = await memory.forget(maria, { principal: { id: 'dpo' } });
    expect(counts).toMatchObject({
      threads: 1,
      messages: 3,
      episodes: 3,
      facts: 1,
      nodes: 3,
      edges: 1,
      state: 1,
      ledger: 1,
      review: 1,
    });
    expect(counts.audit).toBeGreaterThan(0);

    expect(await store.threads.listMessages({ scope: mariaThread })).toEqual([]);
    expect(
      (await store.episodes.list({ scope: maria, status: ['active', 'merged', 'archived'] })).items,
    ).toEqual([]);
    expect(await memory.facts.list(mariaThread)).toEqual([]);
    expect((await store.graph.listNodes({ scope: maria })).items).toEqual([]);
    expect(await memory.state.get(mariaThread, 'cursor')).toBeNull();
    expect(await memory.review.list(mariaThread)).toEqual([]);
    expect((await memory.audit.list(maria)).items).toEqual([]);
    const recalled = await memory.recall(mariaThread, { query: 'lead time Supplier X' });
    expect(recalled.sections.facts).toEqual([]);
    expect(recalled.sections.episodes).toEqual([]);

    expect(await memory.facts.list({ ...bob, threadId: 't1' })).toHaveLength(1);
    expect(await memory.state.get({ ...bob, threadId: 't1' }, 'cursor')).not.toBeNull();

    const [record] = (await memory.audit.list(org, { actions: ['forget'] })).items;
    expect(record).toMatchObject({
      scope: org,
      actor: 'dpo',
      action: 'forget',
      details: { scope: maria, counts },
    });
    expect(JSON.stringify(record)).not.toMatch(/Supplier|45 days|Postgres/);
  });

  it('records the erasure of a whole tenant at its root, after erasing it', async () => {
    const { memory } = setup();
    const solo = { userId: 'solo', threadId: 't1' };
    await memory.observe(solo, { role: 'user', content: 'My email is solo@example.com' });
    await memory.forget({ userId: 'solo' });
    const entries = (await memory.audit.list({ userId: 'solo' })).items;
    expect(entries.map((e) => e.action)).toEqual(['forget']);
    expect(await memory.facts.list(solo)).toEqual([]);
  });
});

describe('forgetItem(scope, id)', () => {
  it('deletes one episode, a fact with its whole history, a node or an edge', async () => {
    const { memory, store } = setup();
    await seed(memory);
    await memory.facts.remember(maria, {
      entityType: 'supplier',
      entity: 'Supplier X',
      key: 'lead time',
      value: '30 days',
    });
    const [episode] = (await store.episodes.list({ scope: maria, limit: 1 })).items;
    expect(await memory.forgetItem(maria, episode!.id)).toEqual({ deleted: true, layer: 'episodes' });
    expect(await store.episodes.get({ scope: maria, ids: [episode!.id] })).toEqual([]);

    const fact = await memory.facts.get(maria, { entity: 'Supplier X', key: 'lead time' });
    expect(await memory.forgetItem(maria, fact!.id)).toEqual({ deleted: true, layer: 'facts' });
    expect(await memory.facts.history(maria, { entity: 'Supplier X', key: 'lead time' })).toEqual([]);

    const [edge] = (await store.graph.listEdges({ scope: maria })).items;
    expect(await memory.forgetItem(maria, edge!.id)).toEqual({ deleted: true, layer: 'graph' });
    const [node] = (await store.graph.listNodes({ scope: maria })).items;
    expect(await memory.forgetItem(maria, node!.id)).toEqual({ deleted: true, layer: 'graph' });
    expect((await memory.audit.list(maria, { actions: ['forget.item'] })).items).toHaveLength(4);
    // Bob's copies are untouched.
    expect(await memory.facts.list(bob)).toHaveLength(1);
  });

  it('reaches items below the caller (an org admin) but never above it or in another tenant', async () => {
    const { memory, store } = setup();
    await seed(memory);
    const [mine] = (await store.episodes.list({ scope: maria, limit: 1 })).items;
    expect(await memory.forgetItem(bob, mine!.id)).toEqual({ deleted: false });
    expect(await memory.forgetItem({ ...bob, threadId: 't1' }, mine!.id)).toEqual({ deleted: false });
    expect(await memory.forgetItem({ orgId: 'globex' }, mine!.id)).toEqual({ deleted: false });
    expect(await store.episodes.get({ scope: maria, ids: [mine!.id] })).toHaveLength(1);
    expect(await memory.forgetItem(org, mine!.id)).toEqual({ deleted: true, layer: 'episodes' });
  });

  it("lets a thread delete its user's long-term items, never the organisation's", async () => {
    const { memory, store } = setup();
    await seed(memory);
    // Observed in the thread, stored at the user's scope (longTermScope: 'shared').
    const [episode] = (await store.episodes.list({ scope: maria, limit: 1 })).items;
    expect(episode!.scope).toEqual(maria);
    expect(await memory.forgetItem(mariaThread, episode!.id)).toEqual({ deleted: true, layer: 'episodes' });
    const fact = await memory.facts.get(mariaThread, { entity: 'Supplier X', key: 'lead time' });
    expect(fact!.scope).toEqual(maria);
    expect(await memory.forgetItem(mariaThread, fact!.id)).toEqual({ deleted: true, layer: 'facts' });
    expect(await memory.facts.get(mariaThread, { entity: 'Supplier X', key: 'lead time' })).toBeNull();

    const { fact: shared } = await memory.facts.remember(org, {
      entity: 'Office',
      key: 'wifi',
      value: 'guest',
    });
    expect(await memory.forgetItem(mariaThread, shared!.id)).toEqual({ deleted: false });
    expect(await memory.forgetItem(maria, shared!.id)).toEqual({ deleted: false });
    expect((await memory.facts.get(mariaThread, { entity: 'Office', key: 'wifi' }))?.value).toBe('guest');
    const audit = await memory.audit.list(maria, { actions: ['forget.item'] });
    expect(audit.items.map((e) => [e.subjectId, e.scope])).toEqual([
      [episode!.id, maria],
      [fact!.id, maria],
    ]);
  });

  it("keeps a thread inside itself under longTermScope: 'thread'", async () => {
    const store = memoryStore();
    const memory = createMemory({ store, clock: manualClock(), policy: { longTermScope: 'thread' } });
    const { fact: userFact } = await memory.facts.remember(maria, {
      entity: 'Desk',
      key: 'floor',
      value: '3',
    });
    const { fact: threadFact } = await memory.facts.remember(mariaThread, {
      entity: 'Desk',
      key: 'chair',
      value: 'red',
    });
    expect(await memory.forgetItem(mariaThread, userFact!.id)).toEqual({ deleted: false });
    expect(await memory.forgetItem(mariaThread, threadFact!.id)).toEqual({ deleted: true, layer: 'facts' });
  });

  it('finds an item the caller can see without walking the subtree', async () => {
    const { memory, store } = setup();
    await seed(memory);
    for (let i = 0; i < 5; i++) {
      await memory.observe(
        { ...maria, threadId: `other-${i}` },
        { role: 'user', content: `Note number ${i}.` },
      );
    }
    const walked: string[] = [];
    const spying = new Proxy(store, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== 'threads' && property !== 'audit' && property !== 'scopes') return value;
        return new Proxy(value as object, {
          get(sub, method, subReceiver) {
            const fn = Reflect.get(sub, method, subReceiver);
            if (method !== 'list' || typeof fn !== 'function') return fn;
            return (...args: unknown[]) => {
              walked.push(`${String(property)}.list`);
              return (fn as (...a: unknown[]) => unknown).apply(sub, args);
            };
          },
        });
      },
    });
    const spied = createMemory({ store: spying, clock: manualClock() });
    const [episode] = (await store.episodes.list({ scope: maria, limit: 1 })).items;
    expect(await spied.forgetItem(mariaThread, episode!.id)).toEqual({ deleted: true, layer: 'episodes' });
    expect(walked).toEqual([]);
    // An id the caller cannot see is looked for down the subtree.
    expect(await spied.forgetItem(mariaThread, 'ep_missing')).toEqual({ deleted: false });
    expect(walked).toEqual(['scopes.list']);
  });

  it('validates its arguments', async () => {
    const { memory } = setup();
    await expect(memory.forgetItem(maria, '')).rejects.toSatisfy((e) =>
      StrataError.hasCode(e, 'invalid_input'),
    );
    await expect(memory.forget({} as Scope)).rejects.toSatisfy((e) =>
      StrataError.hasCode(e, 'invalid_scope'),
    );
  });
});
