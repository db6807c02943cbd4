import { describe, expect, it } from 'vitest';
import { createMemory } from '../memory/create-memory.ts';
import { type Scope, scopeKey } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';
import { subtreeScopes } from './subtree-scopes.ts';

/**
 * Batch work over a subtree (consolidation, forgetItem) reads each scope below the one it was
 * given: the store lists every scope of the subtree that holds a row, with or without a thread.
 */

const org: Scope = { orgId: 'acme' };

describe('subtreeScopes', () => {
  it('finds every scope the engine writes to, with or without a thread', async () => {
    const clock = manualClock('2026-03-02T09:00:00Z');
    const store = memoryStore();
    const memory = createMemory({ store, clock });
    const inbox: Scope = { orgId: 'acme', agentId: 'inbox-bot' };
    const bob: Scope = { orgId: 'acme', userId: 'bob' };
    const carol: Scope = { orgId: 'acme', userId: 'carol' };
    const dave: Scope = { orgId: 'acme', userId: 'dave' };
    const erin: Scope = { orgId: 'acme', userId: 'erin' };
    const thread: Scope = { orgId: 'acme', userId: 'maria', threadId: 't1' };
    const threadOnly = createMemory({ store, clock, policy: { longTermScope: 'thread' } });
    const frank: Scope = { orgId: 'acme', userId: 'frank', threadId: 'private' };

    const { episodes } = await memory.observe(inbox, { role: 'user', content: 'Invoice INV-2291 arrived.' });
    await memory.facts.remember(bob, { entity: 'Globex', key: 'lead time', value: '2 weeks' });
    await memory.graph.upsertNode(carol, { name: 'billing service' });
    await memory.graph.relate(dave, {
      from: { name: 'auth' },
      relation: 'depends_on',
      to: { name: 'Redis' },
    });
    await memory.facts.remember(erin, { entity: 'Initech', key: 'quote', value: '$300', confidence: 0.2 });
    await memory.observe(thread, { role: 'user', content: "Supplier X's lead time is 45 days." });
    await threadOnly.observe(frank, { role: 'user', content: "Globex's discount is 5%." });
    await memory.observe({ orgId: 'globex', userId: 'zed' }, { role: 'user', content: 'Another tenant.' });

    const found: string[] = [];
    for await (const scope of subtreeScopes(store, org)) found.push(scopeKey(scope));
    // A thread's shared long-term items live in the scope above it (maria); frank's stay in the thread.
    const maria: Scope = { orgId: 'acme', userId: 'maria' };
    const expected = [inbox, bob, carol, dave, erin, thread, maria, frank, org];
    expect(found.at(-1)).toBe(scopeKey(org));
    expect([...found].sort()).toEqual(expected.map(scopeKey).sort());

    // So batch work reaches them: stale facts at a scope that never had a thread, and one episode by id.
    clock.advanceDays(100);
    const report = await memory.consolidate({ scope: org, dryRun: true });
    expect(report.staleFacts).toHaveLength(3);
    expect(await memory.forgetItem(org, episodes[0]!.id)).toEqual({ deleted: true, layer: 'episodes' });
  });
});
