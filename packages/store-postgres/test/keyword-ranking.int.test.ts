import { memoryStore, type Scope, type Store, StrataError } from '@strata-memory/core/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTarget, type TestTarget } from './target.ts';

/**
 * The PostgreSQL store's BM25 must give the in-memory reference store's scores: same matches,
 * same numbers, including after deletes and `forget` change the tenant's statistics.
 */

const api = { source: 'api' } as const;
let target: TestTarget;
let postgres: Store;
let memory: Store;

const acme = { orgId: 'acme' };
const ann = { orgId: 'acme', userId: 'ann' };
const bob = { orgId: 'acme', userId: 'bob' };
const other = { orgId: 'globex', userId: 'ann' };

const corpus: Array<{ id: string; scope: Scope; text: string; status?: 'archived' }> = [
  { id: 'a1', scope: acme, text: 'Payment terms with Supplier X are net 30 days.' },
  { id: 'a2', scope: acme, text: 'Supplier X lead time is 45 days; lead time matters for planning.' },
  { id: 'a3', scope: ann, text: 'Ann prefers morning meetings about payment schedules.' },
  { id: 'a4', scope: ann, text: 'Ann asked about the lead time of the construction crane.' },
  { id: 'a5', scope: bob, text: 'Bob negotiated payment terms for IT equipment: net 60.' },
  { id: 'a6', scope: bob, text: 'Bob archived the old payment email twice.', status: 'archived' },
  { id: 'a7', scope: ann, text: 'Crane rental costs $4,200 per week, payment due Friday.' },
  { id: 'a8', scope: acme, text: 'Terms terms terms: the contract repeats itself a lot about terms.' },
  { id: 'g1', scope: other, text: 'Globex payment terms: net 15, lead time 3 days.' },
  { id: 'g2', scope: other, text: 'Another tenant talks about payment all day, payment payment.' },
];

const queries = [
  'payment terms',
  'lead time for the crane',
  'supplier X',
  'Terms!',
  'what did Bob say about payment?',
  'net 30 OR net 60',
];

beforeAll(async () => {
  target = await openTarget();
  postgres = target.openStore({ schema: target.freshSchema('bm25') });
  memory = memoryStore();
  for (const store of [postgres, memory]) {
    await store.episodes.put({
      episodes: corpus.map((e, i) => ({
        id: e.id,
        scope: e.scope,
        text: e.text,
        occurredAt: 1_000 + i,
        provenance: api,
        ...(e.status ? { status: e.status } : {}),
      })),
    });
  }
});

afterAll(async () => {
  await target.close();
  await memory.close();
});

async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(StrataError.hasCode(error, code as never), String(error)).toBe(true);
}

async function scores(store: Store, scope: Scope, query: string): Promise<Record<string, number>> {
  const hits = await store.episodes.searchKeyword({
    scope,
    query,
    limit: 100,
    status: ['active', 'archived'],
  });
  return Object.fromEntries(hits.map((hit) => [hit.episode.id, hit.score]));
}

async function expectSameScores(scope: Scope): Promise<void> {
  for (const query of queries) {
    const [fromPostgres, fromMemory] = await Promise.all([
      scores(postgres, scope, query),
      scores(memory, scope, query),
    ]);
    expect(Object.keys(fromPostgres).sort(), query).toEqual(Object.keys(fromMemory).sort());
    for (const [id, score] of Object.entries(fromMemory))
      expect(fromPostgres[id], `${query} ${id}`).toBeCloseTo(score, 9);
  }
}

describe('BM25 ranking', () => {
  it('scores exactly like the in-memory reference store, scope by scope', async () => {
    for (const scope of [acme, ann, bob, other, { ...ann, threadId: 't1' }]) await expectSameScores(scope);
    // A sanity check that the comparison compares something.
    expect(Object.keys(await scores(postgres, ann, 'payment terms')).sort()).toEqual([
      'a1',
      'a3',
      'a7',
      'a8',
    ]);
  });

  it('keeps matching after deletes and forget change the tenant statistics', async () => {
    for (const store of [postgres, memory]) {
      await store.episodes.delete({ scope: acme, ids: ['a2'] });
      await store.forget({ scope: bob });
    }
    for (const scope of [acme, ann, other]) await expectSameScores(scope);
  });

  it('keeps per-tenant document frequencies equal to the episodes’ lexemes through puts, deletes and forget', async () => {
    const schema = target.freshSchema('terms');
    const store = target.openStore({ schema });
    const beta = { orgId: 'beta', userId: 'u' };
    await store.episodes.put({ episodes: corpus.map((e, i) => ({ ...e, occurredAt: i, provenance: api })) });
    await store.episodes.put({
      episodes: [
        { id: 'b1', scope: beta, text: 'payment payment lead', occurredAt: 1, provenance: api },
        { id: 'b2', scope: { ...beta, threadId: 't' }, text: 'lead time', occurredAt: 2, provenance: api },
      ],
    });
    await store.episodes.delete({ scope: ann, ids: ['a3', 'a7'] });
    await store.forget({ scope: { ...beta, threadId: 't' } });
    await expectCode(
      store.episodes.put({
        episodes: [{ id: 'b1', scope: beta, text: 'again', occurredAt: 3, provenance: api }],
      }),
      'conflict',
    );
    const kept = await target.sql.query<{ tenant_id: string; lexeme: string; n: string }>(
      `SELECT tenant_id, lexeme, sum(documents)::text AS n FROM "${schema}".keyword_terms
        GROUP BY tenant_id, lexeme HAVING sum(documents) <> 0 ORDER BY tenant_id, lexeme`,
    );
    const counted = await target.sql.query<{ tenant_id: string; lexeme: string; n: string }>(
      `SELECT e.tenant_id, t.lexeme, count(*)::text AS n
         FROM "${schema}".episodes e CROSS JOIN LATERAL unnest(tsvector_to_array(e.search)) AS t(lexeme)
        GROUP BY e.tenant_id, t.lexeme ORDER BY e.tenant_id, t.lexeme`,
    );
    expect(kept.rows.length).toBeGreaterThan(10);
    expect(kept.rows).toEqual(counted.rows);
    const totals = await target.sql.query<{ tenant_id: string; documents: string; terms: string }>(
      `SELECT tenant_id, sum(documents)::text AS documents, sum(terms)::text AS terms FROM "${schema}".keyword_stats
        GROUP BY tenant_id HAVING sum(documents) <> 0 ORDER BY tenant_id`,
    );
    const recount = await target.sql.query<{ tenant_id: string; documents: string; terms: string }>(
      `SELECT tenant_id, count(*)::text AS documents, sum(doc_length)::text AS terms FROM "${schema}".episodes
        GROUP BY tenant_id ORDER BY tenant_id`,
    );
    expect(totals.rows).toEqual(recount.rows);
  });

  it('keeps the postings equal to the episodes’ lexemes, scope, status and time through puts, updates, deletes and forget', async () => {
    const schema = target.freshSchema('postings');
    const store = target.openStore({ schema });
    await store.episodes.put({ episodes: corpus.map((e, i) => ({ ...e, occurredAt: i, provenance: api })) });
    await store.episodes.update({ scope: acme, id: 'a1', patch: { status: 'archived', occurredAt: 99 } });
    await store.episodes.delete({ scope: ann, ids: ['a3'] });
    await store.forget({ scope: bob });
    const ids = async (args: { status?: Array<'active' | 'archived'>; since?: number }) =>
      (await store.episodes.searchKeyword({ scope: acme, query: 'payment terms', limit: 10, ...args }))
        .map((hit) => hit.episode.id)
        .sort();
    expect(await ids({})).toEqual(['a8']);
    expect(await ids({ status: ['active', 'archived'] })).toEqual(['a1', 'a8']);
    expect(await ids({ status: ['active', 'archived'], since: 50 })).toEqual(['a1']);
    const columns = `tenant_id, org_id, user_id, agent_id, thread_id, id, lexeme, tf, doc_length, status,
      access_level, occurred_at`;
    const kept = await target.sql.query(
      `SELECT ${columns} FROM "${schema}".keyword_postings ORDER BY tenant_id, id, lexeme`,
    );
    const expected = await target.sql.query(
      `SELECT ${columns} FROM (
         SELECT e.*, u.lexeme, cardinality(u.positions) AS tf FROM "${schema}".episodes e
          CROSS JOIN LATERAL unnest(e.search) AS u) x
        ORDER BY tenant_id, id, lexeme`,
    );
    expect(kept.rows.length).toBeGreaterThan(20);
    expect(kept.rows).toEqual(expected.rows);
  });

  it('gives the reference scores and order when a few words are in most episodes', async () => {
    const schema = target.freshSchema('maxscore');
    const store = target.openStore({ schema });
    const reference = memoryStore();
    const zoo = { orgId: 'zoo', userId: 'keeper' };
    // "routine" in nine episodes of ten, "zebra" in 30, "okapi" in 3; lengths vary.
    const episodes = Array.from({ length: 300 }, (_, i) => {
      const words = [i % 10 === 0 ? 'weekly' : 'routine', `topic${i % 17}`];
      if (i % 10 === 3) words.push('zebra');
      if (i % 100 === 7) words.push('okapi');
      words.push(...Array.from({ length: i % 6 }, () => 'filler'));
      return {
        id: `z${String(i).padStart(3, '0')}`,
        scope: zoo,
        text: words.join(' '),
        occurredAt: i,
        provenance: api,
      };
    });
    await store.episodes.put({ episodes });
    await reference.episodes.put({ episodes });
    for (const query of ['routine zebra', 'okapi routine', 'zebra okapi routine weekly', 'routine']) {
      const [found, expected] = await Promise.all([
        store.episodes.searchKeyword({ scope: zoo, query, limit: 10 }),
        reference.episodes.searchKeyword({ scope: zoo, query, limit: 10 }),
      ]);
      expect(
        found.map((hit) => hit.episode.id),
        query,
      ).toEqual(expected.map((hit) => hit.episode.id));
      for (const [i, hit] of found.entries()) expect(hit.score, query).toBeCloseTo(expected[i]!.score, 9);
    }
    await reference.close();
  });

  it('offers ts_rank_cd as the cheaper ranking, still scoring every match above zero', async () => {
    const schema = target.freshSchema('tsrank');
    const ranked = target.openStore({ schema, keywordRanking: 'ts_rank_cd' });
    expect(ranked.capabilities.keywordRanking).toBe('ts_rank_cd');
    expect(postgres.capabilities.keywordRanking).toBe('bm25');
    await ranked.episodes.put({
      episodes: [
        { id: 'x1', scope: ann, text: 'payment', occurredAt: 1, provenance: api },
        { id: 'x2', scope: ann, text: 'payment terms payment terms', occurredAt: 2, provenance: api },
        { id: 'x3', scope: ann, text: 'nothing relevant', occurredAt: 3, provenance: api },
      ],
    });
    const hits = await ranked.episodes.searchKeyword({ scope: ann, query: 'payment terms' });
    expect(hits.map((h) => h.episode.id)).toEqual(['x2', 'x1']);
    for (const hit of hits) expect(hit.score).toBeGreaterThan(0);
  });
});
