import type { Scope, Store } from '@strata-memory/core/store';
import { testEmbedder } from '@strata-memory/core/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../src/postgres-store.ts';
import { openTarget, PG_URL, type TestTarget } from './target.ts';

/**
 * The store through PgBouncer in transaction mode, with prepared statements left on (the default).
 * The pooler CI starts (scripts/setup-pgbouncer.sh) is PgBouncer 1.18, which does not keep
 * prepared statements in that mode, with two server connections: a statement prepared on one lands
 * on the other, or finds its name taken there. The store must notice, switch preparation off, and
 * answer every call as a store talking to the server directly does. Needs `STRATA_PGBOUNCER_URL`
 * (a pooler has no embedded equivalent); CI sets it and must reach it.
 */

const PGBOUNCER_URL = process.env.STRATA_PGBOUNCER_URL;
if (process.env.CI && PG_URL && !PGBOUNCER_URL) {
  throw new Error(
    'CI sets STRATA_PG_URL but not STRATA_PGBOUNCER_URL: the pooler run must not be skipped in CI',
  );
}

const api = { source: 'api' } as const;
const embedder = testEmbedder(16);
const users = ['ana', 'ben'];
const topics = ['invoices', 'shipping', 'the supplier', 'the warehouse', 'refunds'];

describe.runIf(PG_URL && PGBOUNCER_URL)(
  'through PgBouncer in transaction mode (needs STRATA_PGBOUNCER_URL)',
  () => {
    let target: TestTarget;
    let direct: Store;
    let pooled: Store;

    beforeAll(async () => {
      target = await openTarget();
      const schema = target.freshSchema('pgbouncer');
      direct = postgresStore({ connectionString: PG_URL!, schema, prepareStatements: false });
      pooled = postgresStore({ connectionString: PGBOUNCER_URL!, schema });
      for (const userId of users) {
        const texts = topics.flatMap((topic, i) => [
          `${userId} asked about ${topic}`,
          `${topic} update number ${i}`,
        ]);
        const vectors = await embedder.embed({ texts });
        await direct.episodes.put({
          episodes: texts.map((text, i) => ({
            scope: { userId },
            text,
            occurredAt: 1_000 + i,
            provenance: api,
            embedding: vectors[i]!,
          })),
        });
      }
    });

    afterAll(async () => {
      await Promise.allSettled([direct?.close(), pooled?.close()]);
      await target.close();
    });

    it('answers every call, concurrent ones included, as a direct store does', async () => {
      const reads = async (store: Store, scope: Scope, topic: string, vector: number[]) => {
        const [keyword, nearest, listed, value] = await Promise.all([
          store.episodes.searchKeyword({ scope, query: topic }),
          store.episodes.searchVector({ scope, vector, limit: 5 }),
          store.episodes.list({ scope, limit: 4 }),
          store.state.get({ scope, key: 'round' }),
        ]);
        return {
          keyword: keyword.map((hit) => [hit.episode.id, hit.score]),
          nearest: nearest.map((hit) => [hit.episode.id, hit.score]),
          listed: listed.items.map((episode) => episode.id),
          round: value?.value,
        };
      };
      for (let round = 0; round < 8; round++) {
        await Promise.all(
          users.map((userId) => pooled.state.set({ scope: { userId }, key: 'round', value: round })),
        );
        for (const topic of topics) {
          const [vector] = await embedder.embed({ texts: [topic] });
          const calls = users.map((userId) => ({ userId }));
          const [expected, got] = await Promise.all([
            Promise.all(calls.map((scope) => reads(direct, scope, topic, vector!))),
            Promise.all(calls.map((scope) => reads(pooled, scope, topic, vector!))),
          ]);
          expect(got).toEqual(expected);
          expect(got.every((r) => r.round === round && r.keyword.length > 0 && r.nearest.length === 5)).toBe(
            true,
          );
        }
      }
    });
  },
);
