import { type Store, StrataError } from '@strata-memory/core/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, PG_URL, type TestTarget } from './target.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * `readReplica` routing. The "replica" is the same server reached through a TCP proxy, so cutting
 * the proxy shows which calls go where: reads outside transactions fail, everything else goes on.
 * Needs a real server (PGlite has no network to route over).
 */

const api = { source: 'api' } as const;

describe.runIf(PG_URL)('read replica (needs STRATA_PG_URL)', () => {
  let target: TestTarget;
  let proxy: TcpProxy;
  let store: Store;
  const scope = { userId: 'replica' };

  beforeAll(async () => {
    target = await openTarget();
    const url = new URL(PG_URL!);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    store = target.openStore({ readReplica: url.toString(), connectionTimeoutMs: 1_000 });
  });

  afterAll(async () => {
    await proxy.set('open');
    await target.close();
    await proxy.close();
  });

  it('sends reads to the replica and writes to the primary', async () => {
    await store.state.set({ scope, key: 'k', value: 1 });
    expect(await store.state.get({ scope, key: 'k' })).toMatchObject({ value: 1 });

    await proxy.set('refuse');
    // Writes (and the first call's migration check) never touch the replica.
    await store.episodes.put({
      episodes: [{ scope, text: 'written while the replica is down', occurredAt: 1, provenance: api }],
    });
    await store.state.set({ scope, key: 'k', value: 2 });
    for (const read of [
      () => store.state.get({ scope, key: 'k' }),
      () => store.episodes.searchKeyword({ scope, query: 'replica' }),
      () => store.episodes.count({ scope }),
      () => store.facts.find({ scope }),
    ]) {
      let error: unknown;
      try {
        await read();
      } catch (e) {
        error = e;
      }
      expect(StrataError.hasCode(error, 'store_unavailable')).toBe(true);
    }
    // Inside a transaction every call, reads included, stays on the primary.
    const inside = await store.transaction(async (tx) => tx.state.get({ scope, key: 'k' }));
    expect(inside).toMatchObject({ value: 2 });

    await proxy.set('open');
    expect(await store.state.get({ scope, key: 'k' })).toMatchObject({ value: 2 });
    expect(await store.episodes.count({ scope })).toBe(1);
  });
});
