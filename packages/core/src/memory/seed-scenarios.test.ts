import { describe, expect, it } from 'vitest';
import type { Scope } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock, testEmbedder } from '../test/index.ts';
import { createMemory } from './create-memory.ts';

/**
 * The seed scenarios, end to end through observe → facts/graph/ledger → recall, on the in-memory
 * store with the default rules extractor.
 */

const maria = { orgId: 'acme', userId: 'maria' };
const session = (threadId: string): Scope => ({ ...maria, threadId });

function setup() {
  const clock = manualClock('2026-03-02T09:00:00Z');
  const store = memoryStore();
  return { clock, store, memory: createMemory({ store, clock, embedder: testEmbedder() }) };
}

describe('seed: the corrected lead time wins', () => {
  it('supersedes 45 days with 30 days, keeps who and when, and recalls only 30 days', async () => {
    const { memory, clock } = setup();
    await memory.observe(session('monday'), {
      id: 'm1',
      role: 'user',
      content: "Supplier X's lead time is 45 days.",
    });
    const saidAt = clock.now();
    clock.advanceDays(3);
    await memory.observe(session('thursday'), {
      id: 'm2',
      role: 'user',
      content: 'No, the lead time is actually 30 days, not 45.',
    });
    const correctedAt = clock.now();

    const key = { entity: 'Supplier X', key: 'lead time' };
    expect((await memory.facts.get(session('friday'), key))!.value).toBe('30 days');
    const history = await memory.facts.history(session('friday'), key);
    expect(history.map((f) => [f.value, f.status, f.provenance.principalId, f.provenance.messageId])).toEqual(
      [
        ['45 days', 'superseded', 'maria', 'm1'],
        ['30 days', 'active', 'maria', 'm2'],
      ],
    );
    expect(history[0]).toMatchObject({
      validFrom: saidAt,
      validTo: correctedAt,
      supersededBy: history[1]!.id,
    });
    expect(history[1]).toMatchObject({ validFrom: correctedAt, metadata: { correction: true } });

    // The episode the old value came from is marked outdated, for recall to leave out or caveat.
    const [oldEpisode] = (await memory.store.episodes.list({ scope: maria, order: 'asc', limit: 1 })).items;
    expect(oldEpisode!.metadata.outdatedFacts).toEqual({ [history[0]!.id]: history[1]!.id });

    clock.advanceDays(7);
    const ctx = await memory.recall(session('next-week'), { query: "What is Supplier X's lead time?" });
    const leadTimes = ctx.sections.facts.filter((f) => f.fact.key === 'lead time');
    expect(leadTimes.map((f) => f.fact.value)).toEqual(['30 days']);
    const factLines = ctx
      .render()
      .split('\n')
      .filter((line) => line.includes('lead time:'));
    expect(factLines).toHaveLength(1);
    expect(factLines[0]).toContain('30 days');
    expect(factLines[0]).not.toContain('45');
  });
});

describe('seed: a hypothetical is reviewed, not remembered', () => {
  it('puts "what if we extended terms to 90 days?" in the review queue and nowhere in facts', async () => {
    const { memory } = setup();
    await memory.observe(session('s1'), { role: 'user', content: 'Our payment terms are net 60.' });
    const result = await memory.observe(session('s1'), {
      role: 'user',
      content: 'What if we extended terms to 90 days?',
    });
    expect(result.facts.written).toEqual([]);
    expect(result.review).toHaveLength(1);
    expect(result.review[0]).toMatchObject({
      reason: 'hypothetical',
      status: 'pending',
      proposal: { key: 'terms', value: '90 days', kind: 'hypothetical' },
    });
    const facts = await memory.facts.list(session('s2'));
    expect(facts.map((f) => [f.key, f.value])).toEqual([['payment terms', 'net 60']]);
    const ctx = await memory.recall(session('s2'), { query: 'What are our payment terms?' });
    expect(ctx.sections.facts.map((f) => f.fact.value)).toEqual(['net 60']);
  });
});

describe('seed: what breaks if we roll back the gRPC migration?', () => {
  it('returns exactly auth, billing and the client SDK through a two-hop traversal', async () => {
    const { memory } = setup();
    await memory.observe(session('architecture'), [
      { role: 'user', content: 'We decided to use gRPC instead of REST for internal services.' },
      { role: 'user', content: 'The gRPC migration affects the service API.' },
      { role: 'user', content: 'Auth, billing and the client SDK depend on the service API.' },
      { role: 'user', content: 'Billing depends on Postgres. The docs site uses the REST API.' },
    ]);
    const later = session('incident');
    const impact = await memory.graph.impact(later, { node: { name: 'gRPC migration' } });
    expect(impact.node.type).toBe('decision');
    expect(impact.affected.map((a) => a.node.name.toLowerCase()).sort()).toEqual([
      'auth',
      'billing',
      'client sdk',
    ]);
    expect(impact.affected.every((a) => a.depth === 2)).toBe(true);
    expect(impact.through!.map((n) => n.name)).toEqual(['service API']);

    const traversal = await memory.graph.traverse(later, {
      from: { name: 'gRPC migration' },
      direction: 'both',
      maxHops: 2,
    });
    expect(
      traversal.reached
        .filter((r) => r.depth === 2)
        .map((r) => r.node.name.toLowerCase())
        .sort(),
    ).toEqual(['auth', 'billing', 'client sdk']);

    const ctx = await memory.recall(later, { query: 'What breaks if we roll back the gRPC migration?' });
    const paths = ctx.sections.graph.map((p) => p.nodes.map((n) => n.name.toLowerCase()));
    for (const component of ['auth', 'billing', 'client sdk']) {
      expect(paths.some((nodes) => nodes[0] === 'grpc migration' && nodes.at(-1) === component)).toBe(true);
    }
  });
});

describe('seed: the inbox job never handles a message twice', () => {
  const inbox: Scope = { orgId: 'acme', agentId: 'inbox-bot' };

  async function runJob(memory: ReturnType<typeof setup>['memory'], messageIds: string[], handled: string[]) {
    for (const id of messageIds) {
      await memory.ledger.once(inbox, `archive:${id}`, async () => {
        handled.push(id);
        await new Promise((resolve) => setTimeout(resolve, 1));
        return { archived: id };
      });
    }
    const last = messageIds.at(-1);
    if (last) await memory.state.set(inbox, 'last-seen', last);
  }

  it('across runs of two memory instances over one store', async () => {
    const store = memoryStore();
    const clock = manualClock();
    const first = createMemory({ store, clock });
    const second = createMemory({ store, clock });
    const handled: string[] = [];
    await runJob(first, ['msg_1', 'msg_2', 'msg_3'], handled);
    await runJob(second, ['msg_2', 'msg_3', 'msg_4'], handled);
    await runJob(first, ['msg_1', 'msg_4', 'msg_5'], handled);
    expect(handled).toEqual(['msg_1', 'msg_2', 'msg_3', 'msg_4', 'msg_5']);
    expect((await second.state.get(inbox, 'last-seen'))!.value).toBe('msg_5');
  });

  it('with concurrent runs racing over the same messages', async () => {
    const store = memoryStore();
    const instances = [createMemory({ store }), createMemory({ store }), createMemory({ store })];
    const handled: string[] = [];
    const ids = Array.from({ length: 20 }, (_, i) => `msg_${i}`);
    await Promise.all(
      instances.flatMap((memory) => [
        runJob(memory, ids, handled),
        runJob(memory, [...ids].reverse(), handled),
      ]),
    );
    expect(handled.sort()).toEqual([...ids].sort());
  });
});
