import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import type { Scope } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';
import { createMemory } from './create-memory.ts';

const user: Scope = { orgId: 'acme', userId: 'maria' };
const thread: Scope = { ...user, threadId: 't1' };

function setup() {
  const clock = manualClock();
  return { clock, memory: createMemory({ store: memoryStore(), clock }) };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error.code;
    throw error;
  }
  return 'resolved';
}

describe('review queue', () => {
  it('approving a hypothetical writes it as a human-approved fact', async () => {
    const { memory } = setup();
    await memory.observe(thread, {
      id: 'm1',
      role: 'user',
      content: 'What if we extended terms to 90 days?',
    });
    const [item] = await memory.review.list(thread);
    expect(item).toMatchObject({
      kind: 'fact',
      reason: 'hypothetical',
      status: 'pending',
      provenance: { messageId: 'm1' },
    });
    expect(await memory.facts.list(thread)).toEqual([]);

    const approved = await memory.review.approve(thread, item!.id, {
      principal: { id: 'cfo' },
      note: 'agreed in board',
    });
    expect(approved.item).toMatchObject({ status: 'approved', decidedBy: 'cfo', note: 'agreed in board' });
    expect(approved.fact).toMatchObject({
      entityType: 'organization',
      entityId: 'acme',
      key: 'terms',
      value: '90 days',
      confidence: 1,
      provenance: { source: 'human', principalId: 'cfo', messageId: 'm1' },
    });
    expect(await memory.review.list(thread)).toEqual([]);
    expect(await memory.review.list(thread, { status: ['approved'] })).toHaveLength(1);
    expect(await codeOf(memory.review.approve(thread, item!.id))).toBe('conflict');
  });

  it('approving an edge proposal adds the edge; rejecting writes nothing', async () => {
    const { memory } = setup();
    await memory.observe(thread, { role: 'user', content: 'What if we replaced REST with gRPC?' });
    await memory.observe(thread, { role: 'user', content: "Suppose Supplier X's lead time was 60 days." });
    const items = await memory.review.list(thread);
    const edgeItem = items.find((i) => i.kind === 'edge')!;
    const factItem = items.find((i) => i.kind === 'fact')!;
    const { edge } = await memory.review.approve(thread, edgeItem.id);
    expect(edge).toMatchObject({ relation: 'replaces', status: 'active' });
    const rejected = await memory.review.reject(thread, factItem.id, { note: 'just brainstorming' });
    expect(rejected.status).toBe('rejected');
    expect(await memory.facts.list(thread)).toEqual([]);
    expect(
      (await memory.audit.list(user, { actions: ['review.approve', 'review.reject'] })).items,
    ).toHaveLength(2);
  });

  it('queues the same pending proposal once', async () => {
    const { memory } = setup();
    await memory.observe(thread, { role: 'user', content: 'What if we extended terms to 90 days?' });
    await memory.observe(
      { ...user, threadId: 't2' },
      { role: 'user', content: 'what if we extended terms to 90 days' },
    );
    expect(await memory.review.list(user)).toHaveLength(1);
  });

  it('queues a proposal once however many other items wait before it', async () => {
    const clock = manualClock();
    const store = memoryStore();
    const memory = createMemory({ store, clock });
    for (let i = 0; i < 1_050; i++) {
      await store.review.add({
        item: {
          scope: user,
          kind: 'fact',
          reason: 'low_confidence',
          proposal: { entityType: 'supplier', entityId: `supplier-${i}`, key: 'lead time', value: i },
          confidence: 0.5,
          provenance: { source: 'api' },
          createdAt: clock.now() - 1_000_000 + i,
        },
      });
    }
    const said = { role: 'user' as const, content: 'What if we extended terms to 90 days?' };
    await memory.observe(thread, said);
    await memory.observe({ ...user, threadId: 't2' }, said);
    const all = await store.review.list({ scope: user, limit: 1_000, cursor: undefined });
    const rest = await store.review.list({ scope: user, limit: 1_000, cursor: all.nextCursor! });
    const hypotheticals = [...all.items, ...rest.items].filter((i) => i.reason === 'hypothetical');
    expect(hypotheticals).toHaveLength(1);
  });

  it('hides items above the reader level and reports unknown ids as not_found', async () => {
    const { memory } = setup();
    await memory.observe(thread, {
      role: 'user',
      content: 'What if we cut the budget to $3,000?',
      access: 'admin',
    });
    expect(await memory.review.list(thread)).toEqual([]);
    const [item] = await memory.review.list(thread, { principal: { id: 'boss', role: 'admin' } });
    expect(item).toBeDefined();
    expect(await codeOf(memory.review.approve(thread, item!.id))).toBe('not_found');
    expect(await codeOf(memory.review.reject(thread, 'rev_unknown'))).toBe('not_found');
  });
});
