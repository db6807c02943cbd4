import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import type { Memory } from '../engine/types.ts';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock, testEmbedder } from '../test/index.ts';
import { MEMORY_TOOL_NAMES, memoryToolDefinitions } from './memory-tools.ts';

const org = { orgId: 'acme' };
const ana = { orgId: 'acme', userId: 'ana' };
const anaThread = { ...ana, threadId: 't1' };
const ben = { orgId: 'acme', userId: 'ben' };
const supplier = { entityType: 'supplier', entity: 'Supplier X', key: 'lead time' };

function setup(options: { principal?: { id: string }; recallBudgetTokens?: number } = {}) {
  const memory = createMemory({ store: memoryStore(), embedder: testEmbedder(), clock: manualClock() });
  return { memory, tools: memoryToolDefinitions({ memory, ...options }) };
}

async function rejection(promise: Promise<unknown>): Promise<StrataError> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StrataError');
}

describe('memoryToolDefinitions', () => {
  it('defines the four tools with a name, a description for the model and a zod input schema', () => {
    const { tools } = setup();
    expect(Object.keys(tools)).toEqual([...MEMORY_TOOL_NAMES]);
    for (const name of MEMORY_TOOL_NAMES) {
      expect(tools[name].name).toBe(name);
      expect(tools[name].description.length).toBeGreaterThan(20);
      const schema = z.toJSONSchema(tools[name].inputSchema) as { type: string; properties: object };
      expect(schema.type).toBe('object');
    }
    expect(tools.remember.inputSchema.safeParse({ kind: 'fact', key: 'x' }).error?.issues[0]?.message).toBe(
      'a fact needs entity',
    );
  });

  it('remember writes a fact at the scope (a changed value supersedes) and reports the previous one', async () => {
    const { memory, tools } = setup({ principal: { id: 'agent-1' } });
    const first = await tools.remember.execute({ kind: 'fact', ...supplier, value: '45 days' }, anaThread);
    expect(first).toMatchObject({
      stored: 'fact',
      confirmed: false,
      fact: { key: 'lead time', value: '45 days' },
    });
    const second = await tools.remember.execute({ kind: 'fact', ...supplier, value: '30 days' }, anaThread);
    expect(second).toMatchObject({
      stored: 'fact',
      fact: { value: '30 days', version: 2 },
      previous: { value: '45 days', status: 'superseded' },
    });
    const fact = await memory.facts.get(ana, supplier);
    expect(fact).toMatchObject({ scope: ana, value: '30 days', provenance: { principalId: 'agent-1' } });
    expect(await memory.facts.get(ben, supplier)).toBeNull();
  });

  it('remember keeps a note as long-term memory, not as a turn of the thread', async () => {
    const { memory, tools } = setup();
    const note = { kind: 'note' as const, text: 'Ana is allergic to peanuts; never suggest satay.' };
    const output = await tools.remember.execute(note, anaThread);
    expect(output).toMatchObject({ stored: 'note', duplicates: 0 });
    const ids = (output as { episodeIds: string[] }).episodeIds;
    expect(ids).toHaveLength(1);
    const [episode] = await memory.store.episodes.get({ scope: ana, ids });
    expect(episode).toMatchObject({ scope: ana, role: 'assistant', metadata: { source: 'memory-tool' } });
    expect(await memory.store.threads.listMessages({ scope: anaThread })).toEqual([]);
    // The same note again is folded into the episode that holds it, whose id comes back.
    const again = await tools.remember.execute(note, { ...ana, threadId: 't2' });
    expect(again).toMatchObject({ stored: 'note', duplicates: 1, episodeIds: ids });
  });

  it('recall returns the rendered block and each item with its id, reason and score, inside the scope', async () => {
    const { memory, tools } = setup({ recallBudgetTokens: 400 });
    await memory.facts.remember(ana, {
      entity: 'speaker',
      entityType: 'user',
      key: 'favourite colour',
      value: 'teal',
    });
    await memory.facts.remember(ben, {
      entity: 'speaker',
      entityType: 'user',
      key: 'favourite colour',
      value: 'crimson',
    });
    const output = await tools.recall.execute({ query: 'favourite colour' }, anaThread);
    expect(output.context).toContain('teal');
    expect(output.context).not.toContain('crimson');
    const teal = output.items.find((i) => i.text.includes('teal'));
    expect(teal).toMatchObject({ layer: 'facts', id: expect.stringMatching(/^fact_/) });
    expect(teal!.reason.length).toBeGreaterThan(0);
    expect(typeof teal!.score).toBe('number');
  });

  it("forget deletes the caller's own long-term item from a thread, never another user's or the org's", async () => {
    const { memory, tools } = setup();
    const { fact: own } = await memory.facts.remember(anaThread, { ...supplier, value: '45 days' });
    const { fact: bens } = await memory.facts.remember(ben, { ...supplier, value: '10 days' });
    const { fact: shared } = await memory.facts.remember(org, {
      entity: 'Office',
      key: 'wifi',
      value: 'guest',
    });
    expect(await tools.forget.execute({ id: bens!.id }, anaThread)).toEqual({ deleted: false });
    expect(await tools.forget.execute({ id: shared!.id }, anaThread)).toEqual({ deleted: false });
    expect(await tools.forget.execute({ id: own!.id }, anaThread)).toEqual({ deleted: true, layer: 'facts' });
    expect(await memory.facts.get(ana, supplier)).toBeNull();
    expect(await memory.facts.get(ben, supplier)).not.toBeNull();
    expect(await memory.facts.get(org, { entity: 'Office', key: 'wifi' })).not.toBeNull();
  });

  it('correct supersedes the current value as a human correction and keeps the history', async () => {
    const { memory, tools } = setup();
    await memory.facts.remember(ana, { ...supplier, value: '45 days' });
    const output = await tools.correct.execute({ ...supplier, value: '30 days' }, anaThread);
    expect(output).toMatchObject({
      fact: { value: '30 days', version: 2, confidence: 1 },
      previous: { value: '45 days', status: 'superseded' },
    });
    expect((await memory.facts.history(ana, supplier)).map((f) => f.value)).toEqual(['45 days', '30 days']);
  });

  it('validates input and scope when called directly, and stores nothing then', async () => {
    const { memory, tools } = setup();
    expect((await rejection(tools.remember.execute({ kind: 'fact', key: 'x' } as never, ana))).code).toBe(
      'invalid_input',
    );
    expect((await rejection(tools.recall.execute({ query: '' }, ana))).code).toBe('invalid_input');
    expect((await rejection(tools.forget.execute({ id: 'x' }, {} as never))).code).toBe('invalid_scope');
    expect(
      (
        await rejection(
          tools.remember.execute({ kind: 'note', text: 'hello there' }, { teamId: 'x' } as never),
        )
      ).code,
    ).toBe('invalid_scope');
    expect(await memory.facts.list(ana)).toEqual([]);
  });

  it('validates its options', () => {
    const memory: Memory = setup().memory;
    expect(() => memoryToolDefinitions({ memory: {} as Memory })).toThrow(/Memory/);
    expect(() => memoryToolDefinitions({ memory, recallBudgetTokens: 1 })).toThrow(/recallBudgetTokens/);
    expect(() => memoryToolDefinitions({ memory, principal: { id: '' } })).toThrow(StrataError);
  });
});
