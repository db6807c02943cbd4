import type { MastraDBMessage } from '@mastra/core/memory';
import { memoryStore, type Store } from '@strata-memory/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { newMemory } from '../../test/memory-fixtures.ts';
import { type StrataMastraMemory, strataMemory } from '../index.ts';

/**
 * Listing translates to the store's own filtering, ordering and paging: a page of Mastra's
 * threads or messages reads about a page of rows from the store, however many the resource holds.
 */

const T0 = Date.parse('2026-03-01T10:00:00Z');
const MINUTE = 60_000;

/** A real store that counts the rows its thread reads hand back. */
function countingStore(inner: Store): { store: Store; rows: () => number; reset: () => void } {
  let rows = 0;
  const counted = (value: unknown) => {
    if (Array.isArray(value)) rows += value.length;
    else if (value && typeof value === 'object' && 'items' in value)
      rows += (value as { items: unknown[] }).items.length;
    else if (value) rows += 1;
    return value;
  };
  const threads = new Proxy(inner.threads, {
    get(target, property, receiver) {
      const method = Reflect.get(target, property, receiver);
      if (typeof method !== 'function') return method;
      return async (args: unknown) => counted(await method.call(target, args));
    },
  });
  const store = new Proxy(inner, {
    get: (target, property, receiver) =>
      property === 'threads' ? threads : Reflect.get(target, property, receiver),
  });
  return {
    store,
    rows: () => rows,
    reset: () => {
      rows = 0;
    },
  };
}

let inner: Store;
let counter: ReturnType<typeof countingStore>;
let mastra: StrataMastraMemory;

beforeEach(() => {
  inner = memoryStore();
  counter = countingStore(inner);
  mastra = strataMemory({ memory: newMemory(counter.store) });
});

const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);

describe('listing reads a page, not the resource', () => {
  it('a page of 10 of 500 threads reads about 10 thread rows', async () => {
    for (let i = 0; i < 500; i++) {
      await inner.threads.restore({
        thread: {
          scope: { userId: 'ada', threadId: `t${String(i).padStart(3, '0')}` },
          metadata: { topic: i % 2 === 0 ? 'travel' : 'work' },
          createdAt: T0 + (i % 250) * MINUTE,
          updatedAt: T0 + i * MINUTE,
        },
        messages: [],
      });
    }
    counter.reset();
    const page = await mastra.listThreads({
      filter: { resourceId: 'ada', metadata: { topic: 'travel' } },
      orderBy: { field: 'createdAt', direction: 'DESC' },
      page: 2,
      perPage: 10,
    });
    expect(counter.rows()).toBeLessThanOrEqual(10);
    // 250 travel threads; created at (i % 250) minutes, so t248 and t498 tie, broken by id descending.
    expect(ids(page.threads)).toEqual([
      't478',
      't228',
      't476',
      't226',
      't474',
      't224',
      't472',
      't222',
      't470',
      't220',
    ]);
    expect(page).toMatchObject({ total: 250, page: 2, perPage: 10, hasMore: true });
  });

  it('a page of 10 of 500 messages, and an included message with its neighbours, read about 10 rows each', async () => {
    await inner.threads.restore({
      thread: { scope: { userId: 'ada', threadId: 'long' }, metadata: {}, createdAt: T0, updatedAt: T0 },
      messages: Array.from({ length: 500 }, (_, i) => ({
        id: `m${String(i + 1).padStart(3, '0')}`,
        seq: i + 1,
        role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
        content: `turn ${i + 1}`,
        createdAt: T0 + i * MINUTE,
        metadata: {},
      })),
    });
    counter.reset();
    const page = await mastra.recall({ threadId: 'long', resourceId: 'ada', page: 3, perPage: 10 });
    expect(ids(page.messages)).toEqual(Array.from({ length: 10 }, (_, i) => `m0${31 + i}`));
    expect(page).toMatchObject({ total: 500, hasMore: true });
    expect(counter.rows()).toBeLessThanOrEqual(12);

    counter.reset();
    const around = await mastra.recall({
      threadId: 'long',
      perPage: 0,
      include: [{ id: 'm250', withPreviousMessages: 2, withNextMessages: 2 }],
    });
    expect(ids(around.messages)).toEqual(['m248', 'm249', 'm250', 'm251', 'm252']);
    expect(counter.rows()).toBeLessThanOrEqual(8);
  });

  it("filters messages by Mastra's content metadata and an exclusive date range", async () => {
    const message = (id: string, minute: number, metadata?: Record<string, unknown>): MastraDBMessage => ({
      id,
      role: 'user',
      threadId: 'th',
      resourceId: 'ada',
      createdAt: new Date(T0 + minute * MINUTE),
      content: { format: 2, parts: [{ type: 'text', text: id }], ...(metadata ? { metadata } : {}) },
    });
    await mastra.saveThread({
      thread: { id: 'th', resourceId: 'ada', createdAt: new Date(T0), updatedAt: new Date(T0) },
    });
    await mastra.saveMessages({
      messages: [
        message('a', 1, { source: 'email' }),
        message('b', 2, { source: 'chat' }),
        message('c', 3, { source: 'email', at: new Date(T0) }),
        message('d', 4),
      ],
    });
    const recall = async (filter: object) =>
      ids((await mastra.recall({ threadId: 'th', resourceId: 'ada', filter })).messages);
    expect(await recall({ metadata: { source: 'email' } })).toEqual(['a', 'c']);
    expect(await recall({ metadata: { at: new Date(T0) } })).toEqual(['c']);
    expect(
      await recall({
        dateRange: {
          start: new Date(T0 + MINUTE),
          end: new Date(T0 + 4 * MINUTE),
          startExclusive: true,
          endExclusive: true,
        },
      }),
    ).toEqual(['b', 'c']);
    expect(
      await recall({ dateRange: { start: new Date(T0 + MINUTE), end: new Date(T0 + 2 * MINUTE) } }),
    ).toEqual(['a', 'b']);
  });
});
