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
    expect(oldEpisode!.metadata.outdatedFacts).toEqual({
      [history[0]!.id]: {
        factId: history[0]!.id,
        entityType: 'entity',
        entityId: 'supplier x',
        key: 'lead time',
        statedValue: '45 days',
        currentFactId: history[1]!.id,
        currentValue: '30 days',
        supersededAt: correctedAt,
        corrected: true,
      },
    });

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
    // "terms" is the payment terms stated just before: the proposal is about our payment terms.
    expect(result.review[0]).toMatchObject({
      reason: 'hypothetical',
      status: 'pending',
      proposal: {
        entityType: 'organization',
        entityId: 'acme',
        key: 'payment terms',
        value: '90 days',
        kind: 'hypothetical',
      },
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

describe('seed: the demo, in the words people use', () => {
  const tom = { orgId: 'acme', userId: 'tom' };
  const priya = { orgId: 'acme', userId: 'priya' };

  it('turns natural procurement phrasing into the right facts, and a what-if into a supersede', async () => {
    const { memory, clock } = setup();
    await memory.observe(session('monday'), [
      { role: 'user', content: 'We pay construction suppliers net 60.' },
      { role: 'user', content: "Supplier X's lead time is 45 days." },
      { role: 'user', content: 'Approvals above 50,000 USD need sign-off.' },
      { role: 'user', content: 'Supplier X quoted $4,200 for the steel beams.' },
    ]);
    await memory.observe({ ...tom, threadId: 'tom-1' }, [
      { role: 'user', content: 'IT equipment vendors are paid net 30, laptops and monitors included.' },
    ]);
    clock.advanceDays(1);
    await memory.observe(session('tuesday'), {
      role: 'user',
      content: 'Our construction suppliers are paid net 60.',
    });

    const facts = (await memory.facts.list(maria)).map((f) => [f.entityId, f.key, f.value, f.version]);
    expect(facts).toEqual([
      ['approvals', 'sign-off threshold', 'above 50,000 USD', 1],
      ['construction suppliers', 'payment terms', 'net 60', 1],
      ['supplier x', 'lead time', '45 days', 1],
      ['supplier x', 'quote for the steel beams', '$4,200', 1],
    ]);
    expect((await memory.facts.list(tom)).map((f) => [f.entityId, f.key, f.value])).toEqual([
      ['it equipment vendors', 'payment terms', 'net 30'],
    ]);

    await memory.observe(session('wednesday'), {
      role: 'user',
      content: 'No, the lead time is actually 30 days, not 45.',
    });
    const ctx = await memory.recall(session('thursday'), { query: "What's Supplier X's lead time?" });
    const line = ctx
      .render()
      .split('\n')
      .find((l) => l.includes('lead time:'));
    expect(line).toMatch(/^- supplier x · lead time: 30 days/);

    const { review } = await memory.observe(session('thursday'), {
      role: 'user',
      content: 'What if we extended terms to 90 days?',
    });
    expect(review[0]!.proposal).toMatchObject({ entityId: 'construction suppliers', key: 'payment terms' });
    expect(
      (await memory.facts.get(maria, { entity: 'construction suppliers', key: 'payment terms' }))!.value,
    ).toBe('net 60');
    await memory.review.approve(maria, review[0]!.id);
    const terms = await memory.facts.history(maria, {
      entity: 'construction suppliers',
      key: 'payment terms',
    });
    expect(terms.map((f) => [f.value, f.status])).toEqual([
      ['net 60', 'superseded'],
      ['90 days', 'active'],
    ]);
  });

  it('reads "the REST to gRPC migration" as one decision the short name finds', async () => {
    const { memory } = setup();
    await memory.observe({ ...priya, threadId: 'p1' }, [
      { role: 'user', content: 'The REST to gRPC migration affects auth, billing and the client SDK.' },
      { role: 'user', content: 'Auth, billing and the client SDK all depend on the service API.' },
      { role: 'user', content: 'Billing depends on Postgres.' },
    ]);
    const names = (await memory.store.graph.listNodes({ scope: priya, limit: 100 })).items.map((n) => n.name);
    expect(names.sort()).toEqual(
      [
        'auth',
        'Postgres',
        'REST',
        'REST to gRPC migration',
        'billing',
        'client SDK',
        'gRPC',
        'service API',
      ].sort(),
    );
    const impact = await memory.graph.impact(priya, { node: { name: 'gRPC migration' } });
    expect(impact.node).toMatchObject({ name: 'REST to gRPC migration', type: 'decision' });
    expect(impact.affected.map((a) => a.node.name.toLowerCase()).sort()).toEqual([
      'auth',
      'billing',
      'client sdk',
    ]);
    const again = await memory.observe(
      { ...priya, threadId: 'p2' },
      { role: 'user', content: 'The migration from REST to gRPC affects the docs site.' },
    );
    expect(again.nodes.find((n) => n.type === 'decision')!.name).toBe('REST to gRPC migration');
  });
});

describe('seed: a migration named first by its short name', () => {
  it('keeps one node, known by every name it was called', async () => {
    const { memory } = setup();
    const priya = { orgId: 'acme', userId: 'priya' };
    await memory.observe({ ...priya, threadId: 'p1' }, [
      { role: 'user', content: 'The gRPC migration affects the service API.' },
      { role: 'user', content: 'The REST to gRPC migration affects billing.' },
    ]);
    const decisions = (await memory.store.graph.listNodes({ scope: priya, limit: 100 })).items.filter(
      (n) => n.type === 'decision',
    );
    expect(decisions.map((n) => n.name)).toEqual(['gRPC migration']);
    expect(decisions[0]!.aliases).toContain('REST to gRPC migration');
    const impact = await memory.graph.impact(priya, { node: { name: 'REST to gRPC migration' } });
    expect(impact.node.id).toBe(decisions[0]!.id);
    expect(impact.affected.map((a) => a.node.name).sort()).toEqual(['billing', 'service API']);
  });
});
