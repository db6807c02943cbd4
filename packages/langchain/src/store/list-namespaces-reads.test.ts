import { memoryStore, type Store } from '@strata-memory/core';
import { describe, expect, it } from 'vitest';
import { newMemory } from '../../test/memory-fixtures.ts';
import { itemPath } from './item-path.ts';
import { ITEM_ENTITY_TYPE, ITEM_FACT_KEY, StrataStore } from './strata-store.ts';

/** A real store that counts the fact rows its reads hand back. */
function countingStore(inner: Store): { store: Store; rows: () => number } {
  let rows = 0;
  const facts = new Proxy(inner.facts, {
    get(target, property, receiver) {
      const method = Reflect.get(target, property, receiver);
      if (typeof method !== 'function') return method;
      return async (args: unknown) => {
        const result = await method.call(target, args);
        rows += Array.isArray(result)
          ? result.length
          : ((result as { items?: unknown[] })?.items?.length ?? 0);
        return result;
      };
    },
  });
  const store = new Proxy(inner, {
    get: (target, property, receiver) =>
      property === 'facts' ? facts : Reflect.get(target, property, receiver),
  });
  return { store, rows: () => rows };
}

describe('listNamespaces reads namespaces, not items', () => {
  it('300 items in 3 namespaces: about 3 rows read', async () => {
    const inner = memoryStore();
    const namespaces = [['users', 'Ada', 'prefs'], ['users', 'bob', 'prefs'], ['docs']];
    for (let i = 0; i < 300; i++) {
      await inner.facts.insert({
        fact: {
          scope: { orgId: 'acme' },
          entityType: ITEM_ENTITY_TYPE,
          entityId: itemPath(namespaces[i % 3]!, `k${i}`),
          key: ITEM_FACT_KEY,
          value: { n: i },
          provenance: { source: 'api' },
        },
      });
    }
    const counter = countingStore(inner);
    const store = new StrataStore({ memory: newMemory(counter.store), scope: { orgId: 'acme' } });
    expect(await store.listNamespaces()).toEqual([
      ['docs'],
      ['users', 'Ada', 'prefs'],
      ['users', 'bob', 'prefs'],
    ]);
    expect(await store.listNamespaces({ prefix: ['users'], maxDepth: 2 })).toEqual([
      ['users', 'Ada'],
      ['users', 'bob'],
    ]);
    expect(counter.rows()).toBeLessThanOrEqual(6);
  });
});
