import { type Store, StrataError } from '@strata-memory/core/store';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolClient } from '../src/client/pool-client.ts';
import { openTarget, PG_URL, type TestTarget } from './target.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * The server stops answering while calls are in flight (the connection stays open, no byte comes
 * back), then answers again; the store instance is never recreated. Runs only against a real
 * server (CI always has one): PGlite lives in this process and cannot stop answering.
 */

const api = { source: 'api' } as const;
const QUERY_TIMEOUT_MS = 1_000;

async function failure(promise: Promise<unknown>): Promise<StrataError> {
  try {
    await promise;
  } catch (error) {
    if (StrataError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** The messages along an error's cause chain. */
function causes(error: unknown): string[] {
  const out: string[] = [];
  for (let current = error; current instanceof Error; current = current.cause) out.push(current.message);
  return out;
}

describe.runIf(PG_URL)(
  'a server that stops answering (needs STRATA_PG_URL: a real server behind a TCP proxy)',
  () => {
    let target: TestTarget;
    let proxy: TcpProxy;
    let store: Store;
    const scope = { userId: 'stalled' };

    beforeAll(async () => {
      target = await openTarget();
      const url = new URL(PG_URL!);
      proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      store = target.openStore({
        connectionString: url.toString(),
        connectionTimeoutMs: QUERY_TIMEOUT_MS,
        queryTimeoutMs: QUERY_TIMEOUT_MS,
        poolSize: 1,
        // No background ANALYZE: the one connection is idle when the server stops answering.
        analyze: 'never',
      });
      // Migrated, with its connection open before the server stops answering.
      await store.state.set({ scope, key: 'before', value: 1 });
      await store.episodes.put({
        episodes: [{ scope, text: 'stored before the stall', occurredAt: 1, provenance: api }],
      });
    });

    afterAll(async () => {
      await proxy.set('open');
      await target.close();
      await proxy.close();
    });

    // Without a query timeout these calls wait for the whole stall, here the test's own timeout.
    it('fails a call in flight with a retryable store_unavailable once the query timeout passes', {
      timeout: 20_000,
    }, async () => {
      await proxy.set('stall');
      // The first call is sent on the open connection and never answered: the query timeout ends it.
      // The others need a new connection, which the stalled server accepts and never answers.
      const calls = [
        { call: () => store.episodes.searchKeyword({ scope, query: 'stall' }), cause: /Query read timeout/ },
        { call: () => store.state.get({ scope, key: 'before' }), cause: /timeout/ },
        { call: () => store.episodes.count({ scope }), cause: /timeout/ },
      ];
      for (const { call, cause } of calls) {
        const error = await failure(call());
        expect(error.code).toBe('store_unavailable');
        expect(error.retryable).toBe(true);
        expect(causes(error)).toEqual(expect.arrayContaining([expect.stringMatching(cause)]));
      }
      await proxy.set('open');
      expect(await store.state.get({ scope, key: 'before' })).toMatchObject({ value: 1 });
      expect(await store.episodes.count({ scope })).toBe(1);
    });

    it('fails a transaction whose server stops answering mid-way, rolled back, then works again', {
      timeout: 20_000,
    }, async () => {
      const error = await failure(
        store.transaction(async (tx) => {
          await tx.state.set({ scope, key: 'half', value: 1 });
          await proxy.set('stall');
          await tx.state.set({ scope, key: 'half-2', value: 2 });
        }),
      );
      expect(error.code).toBe('store_unavailable');
      expect(error.retryable).toBe(true);
      expect(causes(error)).toEqual(expect.arrayContaining([expect.stringMatching(/Query read timeout/)]));
      await proxy.set('open');
      expect(await store.state.get({ scope, key: 'half' })).toBeNull();
      expect(await store.state.get({ scope, key: 'half-2' })).toBeNull();
      await store.state.set({ scope, key: 'after', value: 2 });
      expect(await store.state.get({ scope, key: 'after' })).toMatchObject({ value: 2 });
    });

    it('exempts untimed transactions (schema migrations) from the query timeout, and only them', async () => {
      const pool = new pg.Pool({ connectionString: PG_URL, max: 1, query_timeout: QUERY_TIMEOUT_MS });
      pool.on('error', () => undefined);
      const client = poolClient(pool, { ownsPool: true });
      try {
        const slow = `SELECT pg_sleep(${(QUERY_TIMEOUT_MS * 1.5) / 1000}) IS NULL AS slept`;
        const untimed = await client.transaction((tx) => tx.query<{ slept: boolean }>(slow), {
          untimed: true,
        });
        expect(untimed.rows).toEqual([{ slept: false }]);
        await expect(client.transaction((tx) => tx.query(slow))).rejects.toThrow(/Query read timeout/);
      } finally {
        await client.close();
      }
    });
  },
);
