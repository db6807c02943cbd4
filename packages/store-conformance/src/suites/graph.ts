import type { Scope, Store } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import {
  allPages,
  expectCode,
  newTenant,
  provenance,
  sorted,
  T0,
  type Tenant,
  useStore,
} from '../fixtures.ts';
import type { StoreConformanceOptions } from '../options.ts';

type Ids = Pick<Tenant, 'id'>;

/** Upserts the node called `name`, with the test's id for `n-<name>`. */
export async function node(
  store: Store,
  t: Ids,
  scope: Scope,
  name: string,
  extra: Record<string, unknown> = {},
) {
  return store.graph.upsertNode({
    node: { id: t.id(`n-${name}`), scope, type: 'entity', name, provenance, ...extra },
  });
}

/** Adds the edge `from` → `to`, with the test's id for `e-<from>-<relation>-<to>`. */
export async function edge(
  store: Store,
  t: Ids,
  scope: Scope,
  from: string,
  to: string,
  relation = 'depends_on',
) {
  return store.graph.addEdge({
    edge: {
      id: t.id(`e-${from}-${relation}-${to}`),
      scope,
      from: t.id(`n-${from}`),
      to: t.id(`n-${to}`),
      relation,
      provenance,
    },
  });
}

/** Builds nodes and edges from `a>b` (relation depends_on) or `a>b:affects` specs. */
async function graphOf(store: Store, t: Ids, scope: Scope, specs: string[]) {
  const names = new Set(specs.flatMap((s) => s.split(':')[0]!.split('>')));
  for (const name of names) await node(store, t, scope, name);
  for (const spec of specs) {
    const [pair, relation] = spec.split(':');
    const [from, to] = pair!.split('>');
    await edge(store, t, scope, from!, to!, relation ?? 'depends_on');
  }
}

const reachedNames = (result: { reached: Array<{ node: { name: string }; depth: number }> }) =>
  result.reached.map((s) => `${s.node.name}@${s.depth}`);

export function graphSuite(options: StoreConformanceOptions): void {
  describe('graph', () => {
    const store = useStore(options);

    it('upserts one node per scope, type and normalised name, merging aliases and properties', async () => {
      const t = newTenant();
      const first = await store().graph.upsertNode({
        node: {
          scope: t.alice,
          type: 'Supplier',
          name: 'ACME Corp',
          aliases: ['Acme'],
          properties: { a: 1 },
          provenance,
          at: T0,
        },
      });
      expect(first).toMatchObject({ type: 'supplier', name: 'ACME Corp', status: 'active', createdAt: T0 });
      const again = await store().graph.upsertNode({
        node: {
          scope: t.alice,
          type: 'supplier',
          name: '  acme   corp. ',
          aliases: ['ACME', 'Acme Corporation'],
          properties: { b: 2 },
          provenance,
          at: T0 + 1,
        },
      });
      expect(again.id).toBe(first.id);
      expect(again.name).toBe('ACME Corp');
      expect(again.properties).toEqual({ a: 1, b: 2 });
      expect(sorted(again.aliases.map((a) => a.toLowerCase()))).toEqual(['acme', 'acme corporation']);
      expect(again.updatedAt).toBe(T0 + 1);
      const otherType = await store().graph.upsertNode({
        node: { scope: t.alice, type: 'person', name: 'ACME Corp', provenance },
      });
      const otherScope = await store().graph.upsertNode({
        node: { scope: t.bob, type: 'supplier', name: 'ACME Corp', provenance },
      });
      expect(new Set([first.id, otherType.id, otherScope.id]).size).toBe(3);
    });

    it('finds nodes by normalised name or alias, within the reader’s visibility', async () => {
      const t = newTenant();
      await node(store(), t, t.org, 'Project Apollo', { aliases: ['Apollo'], type: 'project' });
      await node(store(), t, t.alice, 'Alice Notes', { aliases: ['notes'] });
      await node(store(), t, t.bob, 'Bob Notes', { aliases: ['notes'] });
      await node(store(), t, t.otherOrgAlice, 'Apollo');
      const names = async (scope: Scope, query: string[], types?: string[]) =>
        sorted((await store().graph.findNodes({ scope, names: query, types })).map((n) => n.name));
      expect(await names(t.aliceThread, ['  APOLLO! ', 'notes'])).toEqual(['Alice Notes', 'Project Apollo']);
      expect(await names(t.bob, ['notes'])).toEqual(['Bob Notes']);
      expect(await names(t.alice, ['apollo'], ['person'])).toEqual([]);
      expect(await names(t.alice, ['apollo'], ['project'])).toEqual(['Project Apollo']);
      expect(await names(t.org, ['notes'])).toEqual([]);
      expect(await names(t.alice, ['nothing like it'])).toEqual([]);
    });

    it('adds edges between visible nodes only, and never the same active edge twice', async () => {
      const t = newTenant();
      await node(store(), t, t.alice, 'a');
      await node(store(), t, t.alice, 'b');
      await node(store(), t, t.bob, 'c');
      const first = await edge(store(), t, t.alice, 'a', 'b');
      expect(first).toMatchObject({
        from: t.id('n-a'),
        to: t.id('n-b'),
        relation: 'depends_on',
        status: 'active',
      });
      const again = await store().graph.addEdge({
        edge: {
          id: t.id('another-id'),
          scope: t.alice,
          from: t.id('n-a'),
          to: t.id('n-b'),
          relation: 'depends_on',
          provenance,
        },
      });
      expect(again.id).toBe(first.id);
      await expectCode(edge(store(), t, t.alice, 'a', 'c'), 'not_found');
      await expectCode(edge(store(), t, t.alice, 'a', 'missing'), 'not_found');
      const edges = await store().graph.listEdges({ scope: t.alice });
      expect(edges.items.map((e) => e.id)).toEqual([first.id]);
    });

    it('lists edges by node, direction and relation, page by page', async () => {
      const t = newTenant();
      await graphOf(store(), t, t.alice, ['a>b', 'c>a', 'a>d:affects', 'b>d']);
      const ids = async (args: Record<string, unknown>) =>
        sorted((await store().graph.listEdges({ scope: t.alice, ...args })).items.map((e) => e.id));
      expect(await ids({ nodeIds: [t.id('n-a')], direction: 'out' })).toEqual([
        t.id('e-a-affects-d'),
        t.id('e-a-depends_on-b'),
      ]);
      expect(await ids({ nodeIds: [t.id('n-a')], direction: 'in' })).toEqual([t.id('e-c-depends_on-a')]);
      expect(await ids({ nodeIds: [t.id('n-a')] })).toHaveLength(3);
      expect(await ids({ relations: ['affects'] })).toEqual([t.id('e-a-affects-d')]);
      const paged = await allPages((cursor) => store().graph.listEdges({ scope: t.alice, limit: 3, cursor }));
      expect(sorted(paged.items.map((e) => e.id))).toHaveLength(4);
      expect(new Set(paged.items.map((e) => e.id)).size).toBe(4);
      expect((await store().graph.listEdges({ scope: t.bob })).items).toEqual([]);
    });

    it('traverses out, in and both directions', async () => {
      const t = newTenant();
      await graphOf(store(), t, t.alice, ['a>b', 'b>c', 'x>a']);
      const walk = (direction: 'out' | 'in' | 'both') =>
        store().graph.traverse({ scope: t.alice, start: [t.id('n-a')], direction, maxHops: 3 });
      expect(reachedNames(await walk('out'))).toEqual(['b@1', 'c@2']);
      expect(reachedNames(await walk('in'))).toEqual(['x@1']);
      expect(sorted(reachedNames(await walk('both')))).toEqual(['b@1', 'c@2', 'x@1']);
      const out = await walk('out');
      expect(out.start.map((n) => n.id)).toEqual([t.id('n-a')]);
      expect(out.reached[1]!.path).toEqual({
        nodeIds: [t.id('n-a'), t.id('n-b'), t.id('n-c')],
        edgeIds: [t.id('e-a-depends_on-b'), t.id('e-b-depends_on-c')],
      });
      expect(sorted(out.edges.map((e) => e.id))).toEqual([
        t.id('e-a-depends_on-b'),
        t.id('e-b-depends_on-c'),
      ]);
    });

    it('stops at the hop bound', async () => {
      const t = newTenant();
      await graphOf(store(), t, t.alice, ['a>b', 'b>c', 'c>d', 'd>e']);
      const one = await store().graph.traverse({ scope: t.alice, start: [t.id('n-a')], maxHops: 1 });
      expect(reachedNames(one)).toEqual(['b@1']);
      const two = await store().graph.traverse({ scope: t.alice, start: [t.id('n-a')] });
      expect(reachedNames(two)).toEqual(['b@1', 'c@2']);
      const all = await store().graph.traverse({ scope: t.alice, start: [t.id('n-a')], maxHops: 6 });
      expect(reachedNames(all)).toEqual(['b@1', 'c@2', 'd@3', 'e@4']);
    });

    it('visits each node of a cycle once', async () => {
      const t = newTenant();
      await graphOf(store(), t, t.alice, ['a>b', 'b>c', 'c>a', 'c>c']);
      const result = await store().graph.traverse({
        scope: t.alice,
        start: [t.id('n-a')],
        direction: 'both',
        maxHops: 6,
      });
      expect(reachedNames(result)).toEqual(['b@1', 'c@1']);
      const out = await store().graph.traverse({ scope: t.alice, start: [t.id('n-a')], maxHops: 6 });
      expect(reachedNames(out)).toEqual(['b@1', 'c@2']);
    });

    it('returns one shortest path per reached node', async () => {
      const t = newTenant();
      // a→b→c→d and a shortcut a→d; d→e.
      await graphOf(store(), t, t.alice, ['a>b', 'b>c', 'c>d', 'a>d', 'd>e']);
      const result = await store().graph.traverse({ scope: t.alice, start: [t.id('n-a')], maxHops: 4 });
      const steps = new Map(result.reached.map((s) => [s.node.name, s]));
      expect(steps.get('d')!.depth).toBe(1);
      expect(steps.get('d')!.path.nodeIds).toEqual([t.id('n-a'), t.id('n-d')]);
      expect(steps.get('e')!.path.nodeIds).toEqual([t.id('n-a'), t.id('n-d'), t.id('n-e')]);
      expect(steps.get('c')!.path.nodeIds).toEqual([t.id('n-a'), t.id('n-b'), t.id('n-c')]);
      expect(result.reached).toHaveLength(4);
      for (const step of result.reached) {
        expect(step.path.nodeIds).toHaveLength(step.depth + 1);
        expect(step.path.edgeIds).toHaveLength(step.depth);
      }
      const edgeIds = new Set(result.edges.map((e) => e.id));
      for (const step of result.reached)
        for (const id of step.path.edgeIds) expect(edgeIds.has(id)).toBe(true);
    });

    it('follows only active edges and nodes, of the requested relations', async () => {
      const t = newTenant();
      await graphOf(store(), t, t.alice, ['a>b', 'b>c', 'a>d:affects', 'a>e', 'e>f']);
      await store().graph.updateEdge({
        scope: t.alice,
        id: t.id('e-a-depends_on-b'),
        patch: { status: 'superseded' },
      });
      await store().graph.updateNode({ scope: t.alice, id: t.id('n-e'), patch: { status: 'superseded' } });
      const all = await store().graph.traverse({ scope: t.alice, start: [t.id('n-a')], maxHops: 3 });
      expect(reachedNames(all)).toEqual(['d@1']);
      const affects = await store().graph.traverse({
        scope: t.alice,
        start: [t.id('n-a')],
        maxHops: 3,
        relations: ['depends_on'],
      });
      expect(reachedNames(affects)).toEqual([]);
    });

    it('does not walk into a sibling’s nodes or edges, nor start from them', async () => {
      const t = newTenant();
      await node(store(), t, t.org, 'hub');
      await node(store(), t, t.alice, 'alice-item');
      await node(store(), t, t.bob, 'bob-item');
      await edge(store(), t, t.alice, 'alice-item', 'hub');
      await edge(store(), t, t.bob, 'bob-item', 'hub');
      const fromHub = await store().graph.traverse({
        scope: t.alice,
        start: [t.id('n-hub')],
        direction: 'in',
      });
      expect(reachedNames(fromHub)).toEqual(['alice-item@1']);
      const fromBob = await store().graph.traverse({
        scope: t.alice,
        start: [t.id('n-bob-item')],
        direction: 'both',
      });
      expect(fromBob.start).toEqual([]);
      expect(fromBob.reached).toEqual([]);
      const limited = await store().graph.traverse({
        scope: t.alice,
        start: [t.id('n-hub')],
        direction: 'in',
        accessLevel: 0,
        limit: 1,
      });
      expect(limited.reached).toHaveLength(1);
    });

    it('updates and deletes nodes and edges it can see; deleting a node removes its edges', async () => {
      const t = newTenant();
      await graphOf(store(), t, t.alice, ['a>b', 'b>c']);
      await node(store(), t, t.alice, 'x', { aliases: ['old alias'], properties: { p: 1 } });
      const updated = await store().graph.updateNode({
        scope: t.alice,
        id: t.id('n-x'),
        patch: { aliases: ['new alias'], properties: { q: 2 } },
      });
      expect(updated.aliases).toEqual(['new alias']);
      expect(updated.properties).toEqual({ p: 1, q: 2 });
      expect(await store().graph.findNodes({ scope: t.alice, names: ['old alias'] })).toEqual([]);
      expect(
        (await store().graph.findNodes({ scope: t.alice, names: ['new alias'] })).map((n) => n.id),
      ).toEqual([t.id('n-x')]);
      await expectCode(
        store().graph.updateNode({ scope: t.bob, id: t.id('n-x'), patch: { aliases: [] } }),
        'not_found',
      );
      await expectCode(
        store().graph.updateEdge({ scope: t.bob, id: t.id('e-a-depends_on-b'), patch: { confidence: 0 } }),
        'not_found',
      );
      expect(await store().graph.deleteNodes({ scope: t.bob, ids: [t.id('n-b')] })).toEqual({ deleted: 0 });
      expect(await store().graph.deleteEdges({ scope: t.bob, ids: [t.id('e-a-depends_on-b')] })).toEqual({
        deleted: 0,
      });
      expect(await store().graph.deleteNodes({ scope: t.alice, ids: [t.id('n-b')] })).toEqual({ deleted: 1 });
      expect(
        (await store().graph.listEdges({ scope: t.alice, status: ['active', 'superseded'] })).items,
      ).toEqual([]);
      const nodes = await store().graph.getNodes({
        scope: t.alice,
        ids: [t.id('n-a'), t.id('n-b'), t.id('n-c'), t.id('n-x')],
      });
      expect(nodes.map((n) => n.id)).toEqual([t.id('n-a'), t.id('n-c'), t.id('n-x')]);
    });

    it('lists nodes by type and status with access levels, page by page', async () => {
      const t = newTenant();
      for (let i = 0; i < 5; i++) await node(store(), t, t.alice, `p${i}`, { type: 'person', at: T0 + i });
      await node(store(), t, t.alice, 'secret', { type: 'person', accessLevel: 2, at: T0 + 10 });
      await node(store(), t, t.alice, 'thing', { type: 'component', at: T0 + 11 });
      await store().graph.updateNode({ scope: t.alice, id: t.id('n-p0'), patch: { status: 'superseded' } });
      const people = await allPages((cursor) =>
        store().graph.listNodes({ scope: t.alice, types: ['person'], accessLevel: 1, limit: 2, cursor }),
      );
      expect(sorted(people.items.map((n) => n.name))).toEqual(['p1', 'p2', 'p3', 'p4']);
      const everything = await store().graph.listNodes({ scope: t.alice, status: ['active', 'superseded'] });
      expect(everything.items).toHaveLength(7);
    });
  });
}
