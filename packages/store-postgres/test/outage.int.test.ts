import { type Store, StrataError } from '@strata-memory/core/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, PG_URL, type TestTarget } from './target.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * The server goes away and comes back; the store instance is never recreated. Runs only against
 * a real server (CI always has one): PGlite lives in this process and cannot become unreachable.
 */

const api = { source: 'api' } as const;

async function failure(promise: Promise<unknown>): Promise<StrataError> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** The codes and messages along an error's cause chain. */
function causes(error: unknown): string[] {
  const out: string[] = [];
  for (let current = error; current instanceof Error; current = current.cause) {
    out.push(current.message, String((current as { code?: unknown }).code));
  }
  return out;
}

describe.runIf(PG_URL)('outage (needs STRATA_PG_URL: a real server behind a TCP proxy)', () => {
  let target: TestTarget;
  let proxy: TcpProxy;
  let store: Store;
  const scope = { userId: 'outage' };

  beforeAll(async () => {
    target = await openTarget();
    const url = new URL(PG_URL!);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    store = target.openStore({ connectionString: url.toString(), connectionTimeoutMs: 1_000, poolSize: 4 });
  });

  afterAll(async () => {
    await proxy.set('open');
    await target.close();
    await proxy.close();
  });

  it('works through the proxy before the outage', async () => {
    await store.state.set({ scope, key: 'before', value: 1 });
    await store.episodes.put({
      episodes: [{ scope, text: 'stored before the outage', occurredAt: 1, provenance: api }],
    });
    expect(await store.state.get({ scope, key: 'before' })).toMatchObject({ value: 1 });
  });

  it('fails every kind of call with a retryable store_unavailable while the port refuses connections', async () => {
    await proxy.set('refuse');
    const calls: Array<() => Promise<unknown>> = [
      () => store.state.get({ scope, key: 'before' }),
      () => store.episodes.searchKeyword({ scope, query: 'outage' }),
      () => store.episodes.searchVector({ scope, vector: [1, 0, 0] }),
      () =>
        store.facts.insert({
          fact: { scope, entityType: 'e', entityId: 'x', key: 'k', value: 1, provenance: api },
        }),
      () => store.graph.traverse({ scope, start: ['n1'] }),
      () => store.transaction(async (tx) => tx.state.set({ scope, key: 'tx', value: 1 })),
      () => store.forget({ scope: { userId: 'someone-else' } }),
    ];
    for (const call of calls) {
      const error = await failure(call());
      expect(error.code).toBe('store_unavailable');
      expect(error.retryable).toBe(true);
      expect(error.category).toBe('third_party');
      // Refused at once (or, for a pooled connection cut a moment ago, terminated), not after
      // waiting out the connection timeout.
      expect(causes(error)).toEqual(
        expect.arrayContaining([expect.stringMatching(/ECONNREFUSED|Connection terminated/)]),
      );
    }
  });

  it('recovers without a restart once the server is reachable again', async () => {
    await proxy.set('open');
    expect(await store.state.get({ scope, key: 'before' })).toMatchObject({ value: 1 });
    await store.state.set({ scope, key: 'after', value: 2 });
    expect(await store.episodes.count({ scope })).toBe(1);
  });

  it('rolls back a transaction whose connection is cut mid-way, then recovers', async () => {
    const error = await failure(
      store.transaction(async (tx) => {
        await tx.state.set({ scope, key: 'half', value: 1 });
        await proxy.set('drop');
        await tx.state.set({ scope, key: 'half-2', value: 2 });
      }),
    );
    expect(error.code).toBe('store_unavailable');
    expect(error.retryable).toBe(true);
    await proxy.set('open');
    expect(await store.state.get({ scope, key: 'half' })).toBeNull();
    expect(await store.state.get({ scope, key: 'half-2' })).toBeNull();
  });

  it('fails with store_unavailable when connections are accepted and closed at once', async () => {
    await store.state.get({ scope, key: 'before' }); // a pooled connection exists, then dies
    await proxy.set('drop');
    for (let i = 0; i < 3; i++) {
      const error = await failure(store.state.get({ scope, key: 'before' }));
      expect(error.code).toBe('store_unavailable');
      expect(error.retryable).toBe(true);
    }
    await proxy.set('open');
    expect(await store.state.get({ scope, key: 'after' })).toMatchObject({ value: 2 });
  });

  it('gives up after the connection timeout when the host never answers', async () => {
    await proxy.set('blackhole');
    // The first call may meet a pooled connection the cut just killed; the next must open a new one.
    await failure(store.episodes.count({ scope }));
    const error = await failure(store.episodes.count({ scope }));
    expect(error.code).toBe('store_unavailable');
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/timeout/i);
    await proxy.set('open');
    expect(await store.episodes.count({ scope })).toBe(1);
  });
});
