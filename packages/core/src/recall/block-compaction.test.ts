import { describe, expect, it } from 'vitest';
import { createMemory } from '../memory/create-memory.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import type { EdgeRecord, NodeRecord } from '../store/records.ts';
import { manualClock } from '../test/index.ts';
import { turnAgainstFlow } from './graph-retrieval.ts';

/** What the block spends its tokens on: each fact, connection and message once, in its shortest faithful form. */

const ada = { userId: 'ada' };
const thread = { userId: 'ada', threadId: 'lunch' };

function setup() {
  return createMemory({ store: memoryStore(), clock: manualClock('2026-01-02T09:00:00Z') });
}

describe('facts in the block', () => {
  it('lists one entity once, and keeps source and date only for what someone else said', async () => {
    const memory = setup();
    const self = { id: 'ada', role: 'member' };
    await memory.facts.remember(ada, {
      entityType: 'user',
      entity: 'ada',
      key: 'name',
      value: 'Ada',
      principal: self,
    });
    await memory.facts.remember(ada, {
      entityType: 'user',
      entity: 'ada',
      key: 'diet',
      value: 'vegetarian',
      principal: self,
    });
    await memory.facts.remember(ada, {
      entityType: 'user',
      entity: 'ada',
      key: 'desk',
      value: '4B',
      principal: { id: 'tom', role: 'member' },
    });
    const block = (
      await memory.recall(ada, { query: 'Where does Ada sit, and what does she eat?' })
    ).render();
    const lines = block.split('\n').filter((l) => l.startsWith('- user ada'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(' · diet: vegetarian');
    expect(lines[0]).toContain(' · desk: 4B (tom, 2026-01-02)');
    expect(lines[0]).not.toContain('(ada, ');
  });

  it('keeps the caveat of a fact nobody confirmed lately', async () => {
    const clock = manualClock('2026-01-02T09:00:00Z');
    const memory = createMemory({ store: memoryStore(), clock });
    await memory.facts.remember(ada, {
      entityType: 'user',
      entity: 'ada',
      key: 'home city',
      value: 'Porto',
      principal: { id: 'ada', role: 'member' },
    });
    clock.advance(200 * 86_400_000);
    const block = (await memory.recall(ada, { query: 'Where does Ada live?' })).render();
    expect(block).toContain('home city: Porto (unconfirmed since 2026-01-02)');
  });
});

describe('recent messages the facts show', () => {
  it('leaves out a message that only restates facts read from it, and says why', async () => {
    const memory = setup();
    await memory.observe(ada, { role: 'user', content: 'I live in Porto.' });
    await memory.observe(thread, { role: 'user', content: 'I live in Porto' });
    const context = await memory.recall(thread, { query: 'Can you book the team lunch for me?' });
    expect(context.sections.facts.map((f) => f.fact.key)).toContain('home city');
    expect(context.sections.working).toEqual([]);
    expect(context.render()).not.toContain('I live in Porto');
    const entry = context.explain().find((e) => e.layer === 'working');
    expect(entry?.included).toBe(false);
    expect(entry?.reason).toMatch(/left out: shown as "user ada · home city: Porto/);
  });

  it('keeps a restatement the conversation went on from', async () => {
    const memory = setup();
    await memory.observe(ada, { role: 'user', content: 'I live in Porto.' });
    await memory.observe(thread, [
      { role: 'user', content: 'I live in Porto' },
      { role: 'assistant', content: 'Noted, Porto it is.' },
    ]);
    const context = await memory.recall(thread, { query: 'Can you book the team lunch for me?' });
    expect(context.sections.working.map((m) => m.content)).toEqual([
      'I live in Porto',
      'Noted, Porto it is.',
    ]);
  });

  it('keeps a message that says more than the facts read from it', async () => {
    const memory = setup();
    await memory.observe(ada, { role: 'user', content: 'I live in Porto.' });
    await memory.observe(thread, { role: 'user', content: 'I live in Porto and my train leaves at six.' });
    const context = await memory.recall(thread, { query: 'Can you book the team lunch for me?' });
    expect(context.sections.working.map((m) => m.content)).toEqual([
      'I live in Porto and my train leaves at six.',
    ]);
  });
});

describe('connections in the block', () => {
  it('lists the edges leaving a node by one relation on one line, in plain words', async () => {
    const memory = setup();
    await memory.observe(ada, {
      role: 'user',
      content: 'The gRPC migration affects auth, billing and the client SDK.',
    });
    const block = (
      await memory.recall(ada, { query: 'What breaks if we roll back the gRPC migration?' })
    ).render();
    expect(block).toContain('- gRPC migration affects auth, billing, client SDK');
    expect(block).not.toContain('→');
  });

  it('leaves out a path that turns from what a change reaches to what a node needs', async () => {
    const memory = setup();
    await memory.observe(ada, { role: 'user', content: 'The gRPC migration affects billing.' });
    await memory.observe(ada, { role: 'user', content: 'Billing depends on Postgres.' });
    const context = await memory.recall(ada, { query: 'What breaks if we roll back the gRPC migration?' });
    expect(context.render()).toContain('gRPC migration affects billing');
    expect(context.render()).not.toContain('Postgres');
    const dropped = context.explain().find((e) => e.layer === 'graph' && e.reason.includes('Postgres'));
    expect(dropped?.reason).toMatch(/turns from downstream to upstream at billing/);

    // Asked about Postgres too, the path touches the query and stays.
    const asked = await memory.recall(ada, { query: 'Does rolling back the gRPC migration touch Postgres?' });
    expect(asked.render()).toContain('billing depends on Postgres');
  });

  it('follows a chain that keeps its direction', () => {
    const node = (id: string): NodeRecord => ({ id, name: id }) as NodeRecord;
    const edge = (from: string, relation: string, to: string): EdgeRecord =>
      ({ id: `${from}-${to}`, from, to, relation }) as EdgeRecord;
    const nodes = ['migration', 'api', 'auth'].map(node);
    // The migration changes the API, and auth depends on the API: auth is reached downstream.
    expect(
      turnAgainstFlow(nodes, [edge('migration', 'affects', 'api'), edge('auth', 'depends_on', 'api')]),
    ).toBe(undefined);
    // What auth needs, then what changes that: upstream twice.
    expect(
      turnAgainstFlow(['auth', 'api', 'migration'].map(node), [
        edge('auth', 'depends_on', 'api'),
        edge('migration', 'affects', 'api'),
      ]),
    ).toBe(undefined);
    // Relations with no direction of change never turn a path.
    expect(
      turnAgainstFlow(nodes, [edge('migration', 'replaces', 'api'), edge('api', 'depends_on', 'auth')]),
    ).toBe(undefined);
    expect(
      turnAgainstFlow(nodes, [edge('migration', 'affects', 'api'), edge('api', 'depends_on', 'auth')]),
    ).toMatch(/turns from downstream to upstream at api/);
  });
});
