import { describe, expect, it } from 'vitest';
import { createMemory } from '../memory/create-memory.ts';
import type { Scope } from '../scope/scope.ts';
import { manualClock } from '../test/index.ts';
import { memoryStore } from './memory/memory-store.ts';
import { scopeInventory } from './scope-inventory.ts';

const org: Scope = { orgId: 'acme' };
const maria: Scope = { orgId: 'acme', userId: 'maria' };
const thread: Scope = { ...maria, threadId: 't1' };
const bob: Scope = { orgId: 'acme', userId: 'bob' };

async function seeded() {
  const memory = createMemory({ store: memoryStore(), clock: manualClock() });
  await memory.facts.remember(org, { entity: 'Acme', key: 'fiscal year', value: 'April' });
  await memory.facts.remember(maria, { entity: 'Supplier X', key: 'lead time', value: '45 days' });
  await memory.facts.correct(maria, { entity: 'Supplier X', key: 'lead time', value: '30 days' });
  await memory.facts.remember(maria, { entity: 'Supplier X', key: 'terms', value: 'net 60' });
  await memory.graph.relate(maria, {
    from: { name: 'Billing' },
    relation: 'depends_on',
    to: { name: 'API' },
  });
  await memory.observe(thread, [
    { role: 'user', content: 'Our office moved to Lisbon last spring.' },
    { role: 'user', content: 'What if we extended terms to 90 days?' },
  ]);
  await memory.facts.remember(bob, { entity: 'Supplier Y', key: 'lead time', value: '10 days' });
  return memory;
}

describe('scopeInventory(store, root)', () => {
  it('counts the rows stored at exactly each scope of the subtree, layer by layer', async () => {
    const memory = await seeded();
    const inventory = await scopeInventory(memory.store, maria);
    const byScope = new Map(inventory.scopes.map((entry) => [JSON.stringify(entry.scope), entry.counts]));
    // Only maria's subtree: her user scope and her thread; never the org above nor bob beside.
    expect([...byScope.keys()].sort()).toEqual([JSON.stringify(maria), JSON.stringify(thread)].sort());
    const user = byScope.get(JSON.stringify(maria))!;
    const current = await memory.facts.list(maria);
    const ownCurrent = current.filter((f) => f.scope.userId === 'maria');
    expect(user.facts).toBe(ownCurrent.length);
    expect(user.factVersions).toBe(ownCurrent.length + 1); // the corrected value's old version
    expect(user.nodes).toBe(2);
    expect(user.edges).toBe(1);
    expect(user.episodes).toBe(2); // long-term items of the thread live at the user scope
    expect(user.pendingReview).toBe((await memory.review.list(thread)).length);
    expect(user.pendingReview).toBeGreaterThan(0);
    expect(byScope.get(JSON.stringify(thread))!.messages).toBe(2);
    expect(user.messages).toBe(0);
  });

  it('sums the scopes into totals and reports each scope as it goes', async () => {
    const memory = await seeded();
    const seen: Scope[] = [];
    const inventory = await scopeInventory(memory.store, org, { onScope: (scope) => seen.push(scope) });
    expect(seen).toEqual(inventory.scopes.map((entry) => entry.scope));
    const facts = inventory.scopes.reduce((sum, entry) => sum + entry.counts.facts, 0);
    expect(inventory.totals.facts).toBe(facts);
    let own = 0;
    for (const scope of [org, maria, bob]) {
      own += (await memory.facts.list(scope)).filter(
        (f) => JSON.stringify(f.scope) === JSON.stringify(scope),
      ).length;
    }
    expect(inventory.totals.facts).toBe(own);
    expect(inventory.scopes.map((entry) => entry.scope)).toContainEqual(bob);
  });

  it('refuses a scope with no level', async () => {
    const memory = await seeded();
    await expect(scopeInventory(memory.store, {})).rejects.toMatchObject({ code: 'invalid_scope' });
  });
});
