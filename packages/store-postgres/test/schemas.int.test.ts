import type { Store } from '@strata-memory/core/store';
import { testEmbedder } from '@strata-memory/core/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type TestTarget } from './target.ts';

/**
 * Two stores in two schemas of one database, busy at the same moment with the same tenants, the
 * same ids and the same texts: neither ever sees the other's rows.
 */

const api = { source: 'api' } as const;
const embedder = testEmbedder(16);
let target: TestTarget;
let left: Store;
let right: Store;

beforeAll(async () => {
  target = await openTarget();
  left = target.openStore({ schema: target.freshSchema('left') });
  right = target.openStore({ schema: target.freshSchema('right') });
});

afterAll(async () => {
  await target.close();
});

async function workload(store: Store, label: string): Promise<void> {
  const scope = { orgId: 'acme', userId: 'ann' };
  const [embedding] = await embedder.embed({ texts: ['shared words'] });
  for (let i = 0; i < 20; i++) {
    await store.episodes.put({
      episodes: [
        {
          id: `ep${i}`,
          scope,
          text: `shared words ${label} ${i}`,
          occurredAt: i,
          provenance: api,
          embedding,
        },
      ],
    });
    await store.threads.appendMessages({
      scope: { ...scope, threadId: 't' },
      messages: [{ id: `m${i}`, role: 'user', content: label }],
    });
  }
  const fact = await store.facts.insert({
    fact: { id: 'f1', scope, entityType: 'e', entityId: 'x', key: 'owner', value: label, provenance: api },
  });
  await store.facts.supersede({
    scope,
    id: fact.id,
    next: { id: 'f2', value: `${label}-2`, provenance: api },
  });
  await store.state.set({ scope, key: 'cursor', value: label });
}

describe('schemas', () => {
  it('keep two stores in one database apart while both run at once', async () => {
    await Promise.all([workload(left, 'left'), workload(right, 'right')]);
    const scope = { orgId: 'acme', userId: 'ann' };
    for (const [store, label] of [
      [left, 'left'],
      [right, 'right'],
    ] as const) {
      const [vector] = await embedder.embed({ texts: ['shared words'] });
      const keyword = await store.episodes.searchKeyword({
        scope,
        query: 'shared words left right',
        limit: 100,
      });
      const nearest = await store.episodes.searchVector({ scope, vector: vector!, limit: 100 });
      expect(keyword).toHaveLength(20);
      expect(nearest).toHaveLength(20);
      for (const hit of [...keyword, ...nearest]) expect(hit.episode.text).toContain(` ${label} `);
      const messages = await store.threads.listMessages({ scope: { ...scope, threadId: 't' } });
      expect(messages.map((m) => m.content)).toEqual(Array.from({ length: 20 }, () => label));
      const history = await store.facts.history({ scope, entityType: 'e', entityId: 'x', key: 'owner' });
      expect(history.map((f) => f.value)).toEqual([label, `${label}-2`]);
      expect(await store.state.get({ scope, key: 'cursor' })).toMatchObject({ value: label });
    }
    await left.forget({ scope });
    expect(await left.episodes.count({ scope })).toBe(0);
    expect(await right.episodes.count({ scope })).toBe(20);
  });
});
