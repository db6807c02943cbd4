import { describe, expect, it } from 'vitest';
import { newMemory } from '../../test/memory-fixtures.ts';
import { StrataRetriever } from './strata-retriever.ts';

const ada = { orgId: 'acme', userId: 'ada' };

async function seeded() {
  const memory = newMemory();
  await memory.observe({ ...ada, threadId: 't1' }, [
    { role: 'user', content: 'The warehouse in Porto closes at six on Fridays.' },
    { role: 'user', content: "Supplier X's lead time is 45 days." },
    { role: 'user', content: 'Auth and billing depend on the service API.' },
  ]);
  await memory.observe({ orgId: 'acme', userId: 'bob', threadId: 't9' }, [
    { role: 'user', content: 'The warehouse in Porto closes at noon for Bob.' },
  ]);
  return memory;
}

describe('StrataRetriever', () => {
  it('returns recalled episodes as Documents with layer, scores and provenance', async () => {
    const memory = await seeded();
    const retriever = new StrataRetriever({ memory, scope: ada, layers: ['episodes'] });
    const docs = await retriever.invoke('When does the Porto warehouse close?');
    expect(docs.length).toBeGreaterThan(0);
    const top = docs[0]!;
    expect(top.pageContent).toContain('Porto closes at six');
    expect(top.id).toBe(top.metadata.id);
    expect(top.metadata.layer).toBe('episodes');
    expect(top.metadata.scores.keyword).toBeGreaterThan(0);
    expect(top.metadata.scores.vector).toBeGreaterThan(0);
    expect(top.metadata.scores.final).toBeGreaterThan(0);
    expect(top.metadata.episode).toMatchObject({
      text: 'The warehouse in Porto closes at six on Fridays.',
      role: 'user',
      provenance: { source: 'observation', threadId: 't1', principalId: 'ada' },
    });
    expect(top.metadata.sources.episodeIds).toEqual([top.metadata.id]);
    expect(JSON.parse(JSON.stringify(top.metadata))).toEqual(top.metadata);
  });

  it('never returns another user’s memory', async () => {
    const memory = await seeded();
    const docs = await new StrataRetriever({ memory, scope: ada }).invoke(
      'Porto warehouse closing time noon',
    );
    expect(docs.some((d) => d.pageContent.includes('noon'))).toBe(false);
    const bobs = await new StrataRetriever({ memory, scope: { orgId: 'acme', userId: 'bob' } }).invoke(
      'Porto warehouse closing time noon',
    );
    expect(bobs.some((d) => d.pageContent.includes('noon'))).toBe(true);
  });

  it('returns facts and graph paths with their records', async () => {
    const memory = await seeded();
    const retriever = new StrataRetriever({ memory, scope: ada, layers: ['facts', 'graph'] });
    const facts = (await retriever.invoke('lead time of Supplier X')).filter(
      (d) => d.metadata.layer === 'facts',
    );
    expect(facts[0]!.metadata.fact).toMatchObject({
      entity: 'supplier x',
      key: 'lead time',
      value: '45 days',
      version: 1,
      stale: false,
      provenance: { source: 'extraction' },
    });
    const paths = (await retriever.invoke('What depends on the service API?')).filter(
      (d) => d.metadata.layer === 'graph',
    );
    expect(paths.length).toBeGreaterThan(0);
    expect(paths[0]!.metadata.graph!.edges.every((e) => e.relation === 'depends_on')).toBe(true);
    expect(paths[0]!.metadata.graph!.nodes.map((n) => n.name)).toContain('service API');
  });

  it('respects the principal’s access level', async () => {
    const memory = newMemory();
    await memory.facts.remember(ada, { entity: 'budget', key: 'amount', value: '$4,200', access: 'manager' });
    const asMember = new StrataRetriever({ memory, scope: ada, principal: { id: 'm', role: 'member' } });
    const asManager = new StrataRetriever({ memory, scope: ada, principal: { id: 'b', role: 'manager' } });
    expect(await asMember.invoke('budget amount')).toEqual([]);
    expect((await asManager.invoke('budget amount')).map((d) => d.metadata.fact?.value)).toEqual(['$4,200']);
  });

  it('validates its options', () => {
    const memory = newMemory();
    expect(() => new StrataRetriever({ memory, scope: {} })).toThrow(/scope/);
    expect(() => new StrataRetriever({ memory, scope: ada, layers: ['working' as never] })).toThrow(/layers/);
    expect(() => new StrataRetriever({ memory, scope: ada, k: 3 } as never)).toThrow(/k/);
  });
});
