import { describe, expect, it } from 'vitest';
import type { Scope } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock, testEmbedder } from '../test/index.ts';
import { createMemory } from './create-memory.ts';

const acmeMaria: Scope = { orgId: 'acme', userId: 'maria', threadId: 't1' };
const other: Scope = { orgId: 'other', userId: 'x' };

function setup() {
  const clock = manualClock();
  const store = memoryStore();
  return { clock, store, memory: createMemory({ store, clock, embedder: testEmbedder() }) };
}

describe('tenant keys come from the scope argument only', () => {
  it('ignores tenant-looking caller metadata: nothing moves to another tenant', async () => {
    const { memory, store } = setup();
    const metadata = {
      orgId: 'other',
      userId: 'x',
      scope: { orgId: 'other', userId: 'x' },
      tenant: 'org:other',
    };
    const result = await memory.observe(acmeMaria, {
      role: 'user',
      content: "Supplier X's lead time is 45 days.",
      metadata,
    });
    expect(result.episodes[0]!.scope).toEqual({ orgId: 'acme', userId: 'maria' });
    expect(result.episodes[0]!.metadata).toEqual(metadata);
    expect(result.facts.written[0]!.scope).toEqual({ orgId: 'acme', userId: 'maria' });

    expect((await store.episodes.list({ scope: other })).items).toEqual([]);
    expect(await memory.facts.list(other)).toEqual([]);
    expect((await store.graph.listNodes({ scope: other })).items).toEqual([]);
    expect((await memory.audit.list({ orgId: 'other' })).items).toEqual([]);
    const recalled = await memory.recall({ ...other, threadId: 't1' }, { query: 'lead time Supplier X' });
    expect(recalled.sections.facts).toEqual([]);
    expect(recalled.sections.episodes).toEqual([]);
    expect(recalled.sections.working).toEqual([]);
  });

  it('keeps sibling users apart', async () => {
    const { memory } = setup();
    await memory.observe(acmeMaria, { role: 'user', content: 'My email is maria@example.com' });
    const bob = { orgId: 'acme', userId: 'bob', threadId: 't1' };
    expect(await memory.facts.list(bob)).toEqual([]);
    const recalled = await memory.recall(bob, { query: 'email' });
    expect(recalled.sections.episodes).toEqual([]);
  });
});

describe('access levels', () => {
  it('writes the level given by `access` and shows items only at or above it', async () => {
    const { memory } = setup();
    const result = await memory.observe(acmeMaria, {
      role: 'user',
      content: 'The acquisition price of Globex is $12M.',
      access: 'admin',
    });
    expect(result.episodes[0]!.accessLevel).toBe(2);
    expect(result.facts.written[0]!.accessLevel).toBe(2);
    expect(result.nodes[0]!.accessLevel).toBe(2);
    const member = { id: 'm', role: 'member' };
    const admin = { id: 'a', role: 'admin' };
    expect(await memory.facts.list(acmeMaria, undefined, { principal: member })).toEqual([]);
    expect(await memory.facts.list(acmeMaria, undefined, { principal: admin })).toHaveLength(1);
    const memberView = await memory.recall(acmeMaria, {
      query: 'Globex acquisition price',
      principal: member,
    });
    expect(memberView.sections.facts).toEqual([]);
    expect(memberView.sections.episodes).toEqual([]);
    const adminView = await memory.recall(acmeMaria, { query: 'Globex acquisition price', principal: admin });
    expect(adminView.sections.facts).toHaveLength(1);
  });

  it('accepts numeric access levels', async () => {
    const { memory } = setup();
    const result = await memory.observe(acmeMaria, {
      role: 'user',
      content: 'Board notes are confidential.',
      access: 1,
    });
    expect(result.episodes[0]!.accessLevel).toBe(1);
  });
});
