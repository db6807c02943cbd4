import { describe, expect, it } from 'vitest';
import { StrataError } from '../errors/strata-error.ts';
import { createMemory } from '../memory/create-memory.ts';
import type { Scope } from '../scope/scope.ts';
import { memoryStore } from '../store/memory/memory-store.ts';
import { manualClock } from '../test/index.ts';

const user: Scope = { orgId: 'acme', userId: 'maria' };
const thread: Scope = { ...user, threadId: 't1' };

function setup() {
  const clock = manualClock();
  const store = memoryStore();
  return { clock, store, memory: createMemory({ store, clock }) };
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

const names = (nodes: Array<{ node: { name: string } }>) => nodes.map((a) => a.node.name).sort();

describe('graph: nodes and edges with provenance', () => {
  it('relates nodes by name, creating missing ones once, with provenance', async () => {
    const { memory } = setup();
    const edge = await memory.graph.relate(thread, {
      from: { name: 'Billing', type: 'component' },
      relation: 'depends on',
      to: { name: 'Postgres' },
      principal: { id: 'maria' },
    });
    expect(edge).toMatchObject({
      relation: 'depends_on',
      scope: user,
      status: 'active',
      provenance: { source: 'api', principalId: 'maria', threadId: 't1' },
    });
    const again = await memory.graph.relate(thread, {
      from: { name: 'billing' },
      relation: 'depends_on',
      to: { name: 'postgres' },
    });
    expect(again.id).toBe(edge.id);
    const nodes = await memory.store.graph.listNodes({ scope: user });
    expect(nodes.items.map((n) => n.name).sort()).toEqual(['Billing', 'Postgres']);
  });

  it('reuses an existing node whatever type a later mention gives it', async () => {
    const { memory } = setup();
    await memory.observe(thread, { role: 'user', content: 'Billing depends on Postgres.' });
    await memory.observe(thread, { role: 'user', content: 'The billing service uses Postgres.' });
    const postgres = await memory.store.graph.findNodes({ scope: user, names: ['postgres'] });
    expect(postgres).toHaveLength(1);
  });

  it('traverses typed edges within maxHops and direction', async () => {
    const { memory } = setup();
    await memory.observe(thread, [
      { role: 'user', content: 'The web app depends on the API gateway.' },
      { role: 'user', content: 'The API gateway depends on the auth service.' },
      { role: 'user', content: 'The auth service depends on Postgres.' },
    ]);
    const out = await memory.graph.traverse(thread, { from: { name: 'web app' }, maxHops: 2 });
    expect(out.reached.map((r) => [r.node.name, r.depth])).toEqual([
      ['API gateway', 1],
      ['auth service', 2],
    ]);
    const all = await memory.graph.traverse(thread, {
      from: { name: 'Postgres' },
      direction: 'in',
      maxHops: 3,
    });
    expect(all.reached.map((r) => r.node.name)).toEqual(['auth service', 'API gateway', 'web app']);
    const none = await memory.graph.traverse(thread, { from: { name: 'web app' }, relations: ['uses'] });
    expect(none.reached).toEqual([]);
    expect(await codeOf(memory.graph.traverse(thread, { from: { name: 'nowhere' } }))).toBe('not_found');
    expect(await codeOf(memory.graph.traverse(thread, { from: {} }))).toBe('invalid_input');
    expect(await codeOf(memory.graph.traverse(thread, { from: { name: 'web app' }, maxHops: 99 }))).toBe(
      'invalid_input',
    );
  });
});

describe('graph: impact', () => {
  it('returns the dependents of what a decision affects, not the intermediate (two hops)', async () => {
    const { memory } = setup();
    await memory.observe(thread, [
      { role: 'user', content: 'The gRPC migration affects the service API.' },
      { role: 'user', content: 'Auth, billing and the client SDK depend on the service API.' },
      { role: 'user', content: 'Billing depends on Postgres. The docs site uses the REST API.' },
    ]);
    const impact = await memory.graph.impact(thread, { node: { name: 'gRPC migration' } });
    expect(names(impact.affected)).toEqual(['Auth', 'billing', 'client SDK']);
    expect(
      impact.affected.every(
        (a) => a.depth === 2 && a.path.nodeIds.length === 3 && a.path.edgeIds.length === 2,
      ),
    ).toBe(true);
    expect(impact.through!.map((n) => n.name)).toEqual(['service API']);
  });

  it('follows dependents transitively within maxHops', async () => {
    const { memory } = setup();
    await memory.observe(thread, [
      { role: 'user', content: 'Billing depends on Postgres.' },
      { role: 'user', content: 'The invoicing job depends on billing.' },
      { role: 'user', content: 'Postgres depends on the storage cluster.' },
    ]);
    const impact = await memory.graph.impact(thread, { node: { name: 'Postgres' } });
    expect(impact.affected.map((a) => [a.node.name, a.depth])).toEqual([
      ['Billing', 1],
      ['invoicing job', 2],
    ]);
    const near = await memory.graph.impact(thread, { node: { name: 'Postgres' }, maxHops: 1 });
    expect(names(near.affected)).toEqual(['Billing']);
  });

  it('lists a changed node nothing depends on as affected', async () => {
    const { memory } = setup();
    await memory.observe(thread, {
      role: 'user',
      content: 'The pricing change affects the Enterprise plan.',
    });
    const impact = await memory.graph.impact(thread, { node: { name: 'pricing change' } });
    expect(names(impact.affected)).toEqual(['Enterprise plan']);
    expect(impact.through).toEqual([]);
  });

  it('ignores superseded edges', async () => {
    const { memory } = setup();
    await memory.observe(thread, { role: 'user', content: 'Auth and billing depend on the service API.' });
    const edges = await memory.store.graph.listEdges({ scope: user });
    const auth = (await memory.store.graph.findNodes({ scope: user, names: ['auth'] }))[0]!;
    await memory.graph.supersede(thread, {
      id: edges.items.find((e) => e.from === auth.id)!.id,
      reason: 'auth moved to OIDC',
    });
    const impact = await memory.graph.impact(thread, { node: { name: 'service API' } });
    expect(names(impact.affected)).toEqual(['billing']);
  });
});

describe('graph: supersede and contradictions', () => {
  it('supersedes a node and its edges instead of deleting them', async () => {
    const { memory, clock } = setup();
    await memory.observe(thread, { role: 'user', content: 'Billing depends on the REST API.' });
    const [rest] = await memory.store.graph.findNodes({ scope: user, names: ['REST API'] });
    clock.advanceDays(1);
    await memory.graph.supersede(thread, { id: rest!.id, reason: 'moved to gRPC' });
    const [node] = await memory.store.graph.getNodes({ scope: user, ids: [rest!.id] });
    expect(node).toMatchObject({ status: 'superseded', properties: { supersededReason: 'moved to gRPC' } });
    const edges = await memory.store.graph.listEdges({ scope: user, status: ['superseded'] });
    expect(edges.items.map((e) => [e.relation, e.validTo])).toEqual([['depends_on', clock.now()]]);
    expect((await memory.audit.list(user, { actions: ['graph.supersede'] })).items).toHaveLength(1);
    expect(await codeOf(memory.graph.supersede(thread, { id: 'node_nope' }))).toBe('not_found');
    expect(await codeOf(memory.graph.supersede({ orgId: 'globex' }, { id: rest!.id }))).toBe('not_found');
  });

  it('finds contradicting facts and edges', async () => {
    const { memory } = setup();
    await memory.facts.remember(
      { orgId: 'acme' },
      { entityType: 'supplier', entity: 'Supplier X', key: 'lead time', value: '45 days' },
    );
    await memory.facts.remember(user, {
      entityType: 'supplier',
      entity: 'Supplier X',
      key: 'lead time',
      value: '30 days',
    });
    await memory.facts.remember(user, {
      entityType: 'supplier',
      entity: 'Supplier Y',
      key: 'lead time',
      value: '10 days',
    });
    await memory.observe(thread, [
      { role: 'user', content: 'We decided to use gRPC instead of REST.' },
      { role: 'user', content: 'The client SDK uses REST.' },
    ]);
    const found = await memory.graph.contradictions(thread);
    expect(found.map((c) => c.kind).sort()).toEqual(['edge', 'fact']);
    const fact = found.find((c) => c.kind === 'fact')!;
    expect(fact.ids).toHaveLength(2);
    expect(fact.description).toContain('"30 days"');
    expect(fact.description).toContain('"45 days"');
    expect(found.find((c) => c.kind === 'edge')!.description).toBe(
      'gRPC replaces REST, but client SDK still uses REST',
    );
  });
});
