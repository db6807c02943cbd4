import { describe, expect, it } from 'vitest';
import { StrataError } from '../../errors/strata-error.ts';
import { memoryStore } from './memory-store.ts';

const provenance = { source: 'api' as const, at: 1 };
const alice = { orgId: 'acme', userId: 'alice' };

function episode(id: string, text: string, scope = alice, extra: Record<string, unknown> = {}) {
  return { id, scope, text, occurredAt: 1_000, provenance, ...extra };
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error.code;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('memoryStore transactions', () => {
  it('makes outer calls wait until a running transaction commits', async () => {
    const store = memoryStore();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const events: string[] = [];

    const tx = store.transaction(async (t) => {
      await t.state.set({ scope: alice, key: 'step', value: 1 });
      events.push('tx wrote 1');
      await held;
      await t.state.set({ scope: alice, key: 'step', value: 2 });
      events.push('tx wrote 2');
    });
    // Give the transaction time to start and block.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const outside = store.state.get({ scope: alice, key: 'step' }).then((entry) => {
      events.push(`outside read ${JSON.stringify(entry?.value)}`);
      return entry;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(events).toEqual(['tx wrote 1']);
    release();
    await tx;
    const seen = await outside;
    expect(seen?.value).toBe(2);
    expect(events).toEqual(['tx wrote 1', 'tx wrote 2', 'outside read 2']);
  });

  it('runs queued transactions one after the other', async () => {
    const store = memoryStore();
    const order: string[] = [];
    const run = (name: string) =>
      store.transaction(async (t) => {
        order.push(`${name} start`);
        const entry = await t.state.get({ scope: alice, key: 'n' });
        await new Promise((resolve) => setTimeout(resolve, 2));
        await t.state.set({ scope: alice, key: 'n', value: ((entry?.value as number) ?? 0) + 1 });
        order.push(`${name} end`);
      });
    await Promise.all([run('a'), run('b'), run('c')]);
    expect(order).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect((await store.state.get({ scope: alice, key: 'n' }))?.value).toBe(3);
  });

  it('lets calls on the outer store from inside the transaction join it (no deadlock) and roll back with it', async () => {
    const store = memoryStore();
    const failure = new Error('abort');
    await expect(
      store.transaction(async (t) => {
        await store.state.set({ scope: alice, key: 'outer-in-tx', value: true });
        await store.transaction(async (inner) => {
          await inner.facts.insert({
            fact: {
              scope: alice,
              entityType: 'user',
              entityId: 'alice',
              key: 'city',
              value: 'Lyon',
              provenance,
            },
          });
        });
        expect(await t.state.get({ scope: alice, key: 'outer-in-tx' })).not.toBeNull();
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await store.state.get({ scope: alice, key: 'outer-in-tx' })).toBeNull();
    expect((await store.facts.find({ scope: alice })).items).toEqual([]);
  });

  it('restores the keyword index and fact keys on rollback', async () => {
    const store = memoryStore();
    await store.episodes.put({ episodes: [episode('keep', 'the invoice was paid')] });
    await expect(
      store.transaction(async (t) => {
        await t.episodes.put({ episodes: [episode('gone', 'invoice overdue again')] });
        await t.episodes.delete({ scope: alice, ids: ['keep'] });
        await t.facts.insert({
          fact: {
            scope: alice,
            entityType: 'user',
            entityId: 'alice',
            key: 'plan',
            value: 'pro',
            provenance,
          },
        });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    const hits = await store.episodes.searchKeyword({ scope: alice, query: 'invoice' });
    expect(hits.map((h) => h.episode.id)).toEqual(['keep']);
    // The key is free again: a fresh insert is version 1 and does not conflict.
    const fact = await store.facts.insert({
      fact: { scope: alice, entityType: 'user', entityId: 'alice', key: 'plan', value: 'free', provenance },
    });
    expect(fact.version).toBe(1);
  });

  it('rejects calls through a transaction handle after the transaction ended', async () => {
    const store = memoryStore();
    let leaked: Parameters<Parameters<typeof store.transaction>[0]>[0] | undefined;
    await store.transaction(async (t) => {
      leaked = t;
    });
    expect(await codeOf(leaked!.state.get({ scope: alice, key: 'x' }))).toBe('invalid_input');
  });
});

describe('memoryStore records and options', () => {
  it('returns copies: mutating a returned record or the input does not change the store', async () => {
    const store = memoryStore();
    const input: ReturnType<typeof episode> & { metadata: Record<string, string[]>; embedding: number[] } = {
      ...episode('e1', 'original text', alice),
      embedding: [1, 0],
      metadata: { tags: ['a'] },
    };
    const [stored] = await store.episodes.put({ episodes: [input] });
    input.metadata.tags!.push('pushed into the input');
    input.embedding[1] = 7;
    stored!.text = 'mutated';
    (stored!.metadata.tags as string[]).push('b');
    stored!.embedding![0] = 42;
    const [again] = await store.episodes.get({ scope: alice, ids: ['e1'] });
    expect(again!.text).toBe('original text');
    expect(again!.metadata).toEqual({ tags: ['a'] });
    expect(again!.embedding).toEqual([1, 0]);
  });

  it('honours capability overrides with unsupported errors', async () => {
    const store = memoryStore({ capabilities: { vectorSearch: false, transactions: false } });
    expect(store.capabilities.vectorSearch).toBe(false);
    expect(store.capabilities.keywordSearch).toBe(true);
    expect(await codeOf(store.episodes.searchVector({ scope: alice, vector: [1, 0] }))).toBe('unsupported');
    expect(await codeOf(store.transaction(async () => 1))).toBe('unsupported');
    expect(await store.episodes.searchKeyword({ scope: alice, query: 'x' })).toEqual([]);
  });

  it('rejects unknown options', () => {
    expect(() => memoryStore({ capabilities: { teleport: true } } as never)).toThrow(StrataError);
  });

  it('fails calls after close', async () => {
    const store = memoryStore();
    await store.close();
    expect(await codeOf(store.state.get({ scope: alice, key: 'x' }))).toBe('store_unavailable');
  });

  it('keeps BM25 statistics per tenant: another tenant flooding a term leaves scores unchanged', async () => {
    const store = memoryStore();
    const bob = { orgId: 'other', userId: 'bob' };
    await store.episodes.put({
      episodes: [episode('a1', 'budget review for the roadmap'), episode('a2', 'roadmap draft')],
    });
    const before = await store.episodes.searchKeyword({ scope: alice, query: 'budget roadmap' });
    await store.episodes.put({
      episodes: Array.from({ length: 200 }, (_, i) => episode(`b${i}`, `budget budget ${i}`, bob)),
    });
    const after = await store.episodes.searchKeyword({ scope: alice, query: 'budget roadmap' });
    expect(after.map((h) => [h.episode.id, h.score])).toEqual(before.map((h) => [h.episode.id, h.score]));
  });

  it('rejects a cursor from another listing', async () => {
    const store = memoryStore();
    for (const key of ['a', 'b', 'c']) await store.state.set({ scope: alice, key, value: key });
    const page = await store.state.list({ scope: alice, limit: 1 });
    expect(page.nextCursor).toBeDefined();
    expect(await codeOf(store.ledger.list({ scope: alice, cursor: page.nextCursor }))).toBe('invalid_input');
    expect(await codeOf(store.state.list({ scope: alice, cursor: 'not-a-cursor' }))).toBe('invalid_input');
  });
});
