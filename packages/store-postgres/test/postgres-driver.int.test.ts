import { contentHash, type Scope, type Store, StrataError } from '@strata-memory/core/store';
import { testEmbedder } from '@strata-memory/core/test';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolClient } from '../src/client/pool-client.ts';
import type { SqlClient } from '../src/client/sql-client.ts';
import { postgresStore } from '../src/postgres-store.ts';
import { openTarget, type TestTarget, vectorDrift } from './target.ts';

/**
 * What is particular to the PostgreSQL driver: the SQL it relies on (partial unique index,
 * row locks, savepoints, per-dimension HNSW indexes, tsvector search) and the races those
 * settle. The shared conformance suite covers the contract itself.
 */

const api = { source: 'api' } as const;
let target: TestTarget;
let store: Store;
let schema: string;

beforeAll(async () => {
  target = await openTarget();
  schema = target.freshSchema('driver');
  store = target.openStore({ schema });
});

afterAll(async () => {
  await target.close();
});

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    if (StrataError.isInstance(error)) return error.code;
    throw error;
  }
}

describe('facts', () => {
  it('lets exactly one of many concurrent supersedes of the same version win; the rest get conflict', async () => {
    const scope = { userId: 'race-supersede' };
    const first = await store.facts.insert({
      fact: { scope, entityType: 'supplier', entityId: 'x', key: 'lead time', value: 45, provenance: api },
    });
    const attempts = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        store.facts.supersede({
          scope,
          id: first.id,
          expectedVersion: 1,
          next: { value: 30 + i, provenance: api },
        }),
      ),
    );
    const won = attempts.filter((a) => a.status === 'fulfilled');
    const lost = attempts.filter((a) => a.status === 'rejected');
    expect(won).toHaveLength(1);
    for (const loss of lost)
      expect(StrataError.hasCode((loss as PromiseRejectedResult).reason, 'conflict')).toBe(true);
    const history = await store.facts.history({
      scope,
      entityType: 'supplier',
      entityId: 'x',
      key: 'lead time',
    });
    expect(history.map((f) => [f.version, f.status])).toEqual([
      [1, 'superseded'],
      [2, 'active'],
    ]);
    const winner = (won[0] as PromiseFulfilledResult<{ current: { value: unknown } }>).value.current;
    expect(history[1]!.value).toEqual(winner.value);
  });

  it('keeps one current version when the same new key is inserted concurrently', async () => {
    const scope = { userId: 'race-insert' };
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        store.facts.insert({
          fact: { scope, entityType: 'user', entityId: 'u', key: 'city', value: i, provenance: api },
        }),
      ),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    const current = await store.facts.find({ scope, entityType: 'user', key: 'city' });
    expect(current.items).toHaveLength(1);
    const rows = await target.sql.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'facts_current'`,
      [schema],
    );
    expect(rows.rows[0]?.indexdef).toMatch(/UNIQUE INDEX .* WHERE \(status = ANY/);
  });
});

describe('threads', () => {
  it('numbers messages appended concurrently to one thread without gaps or repeats', async () => {
    const scope = { userId: 'seq', threadId: 't' };
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.threads.appendMessages({
          scope,
          messages: [
            { id: `m${i}a`, role: 'user', content: `a${i}` },
            { id: `m${i}b`, role: 'assistant', content: `b${i}` },
          ],
        }),
      ),
    );
    const messages = await store.threads.listMessages({ scope, limit: 100 });
    expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // Each batch stayed contiguous and in order.
    for (let i = 0; i < 20; i += 2) expect(messages[i + 1]!.id).toBe(messages[i]!.id.replace(/a$/, 'b'));
  });
});

describe('ledger', () => {
  it('gives a key to exactly one of many concurrent claimers', async () => {
    const scope = { agentId: 'claims' };
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => store.ledger.claim({ scope, key: 'msg_abc123', owner: `w${i}` })),
    );
    expect(results.filter((r) => r.claimed)).toHaveLength(1);
    const owner = results.find((r) => r.claimed)!.entry.owner;
    for (const r of results) expect(r.entry.owner).toBe(owner);
  });
});

describe('transactions', () => {
  it('rolls every call back when the function throws', async () => {
    const scope = { userId: 'tx-rollback' };
    await expect(
      store.transaction(async (tx) => {
        await tx.state.set({ scope, key: 'a', value: 1 });
        await tx.episodes.put({ episodes: [{ scope, text: 'inside', occurredAt: 1, provenance: api }] });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await store.state.get({ scope, key: 'a' })).toBeNull();
    expect(await store.episodes.count({ scope })).toBe(0);
  });

  it('keeps the transaction usable after a call inside it fails, and that call changes nothing', async () => {
    const scope = { userId: 'tx-savepoint' };
    const fact = { scope, entityType: 'e', entityId: 'x', key: 'k', value: 1, provenance: api };
    const result = await store.transaction(async (tx) => {
      await tx.facts.insert({ fact });
      // The server rejects the repeated primary key; without a savepoint the whole transaction would be aborted.
      const failed = await codeOf(
        tx.episodes.put({
          episodes: [
            { id: 'twice', scope, text: 'one', occurredAt: 1, provenance: api },
            { id: 'twice', scope, text: 'two', occurredAt: 2, provenance: api },
          ],
        }),
      );
      await tx.state.set({ scope, key: 'after', value: true });
      return failed;
    });
    expect(result).toBe('conflict');
    expect((await store.facts.find({ scope })).items).toHaveLength(1);
    expect(await store.state.get({ scope, key: 'after' })).toMatchObject({ value: true });
    expect(await store.episodes.count({ scope })).toBe(0);
  });

  it('joins nested transactions and calls on the store made from inside the function', async () => {
    const scope = { userId: 'tx-nested' };
    await expect(
      store.transaction(async (tx) => {
        await store.state.set({ scope, key: 'outer', value: 1 });
        await store.transaction(async (inner) => inner.state.set({ scope, key: 'inner', value: 2 }));
        expect(await tx.state.get({ scope, key: 'inner' })).not.toBeNull();
        throw new Error('undo all');
      }),
    ).rejects.toThrow('undo all');
    expect(await store.state.list({ scope })).toEqual({ items: [] });
  });

  it('refuses calls through a transaction handle after it ended', async () => {
    let leaked: Parameters<Parameters<Store['transaction']>[0]>[0] | undefined;
    await store.transaction(async (tx) => {
      leaked = tx;
    });
    expect(await codeOf(leaked!.state.get({ scope: { userId: 'x' }, key: 'k' }))).toBe('invalid_input');
  });
});

describe('bad input', () => {
  it('rejects text PostgreSQL cannot store with invalid_input and stores nothing of the batch', async () => {
    const scope = { userId: 'nul' };
    const code = await codeOf(
      store.episodes.put({
        episodes: [
          { scope, text: 'fine', occurredAt: 1, provenance: api },
          { scope, text: 'has \u0000 inside', occurredAt: 2, provenance: api },
        ],
      }),
    );
    expect(code).toBe('invalid_input');
    expect(await store.episodes.count({ scope })).toBe(0);
  });

  it('fails a batch with a repeated id as conflict and stores none of it', async () => {
    const scope = { userId: 'dup' };
    const code = await codeOf(
      store.episodes.put({
        episodes: [
          { id: 'same', scope, text: 'one', occurredAt: 1, provenance: api },
          { id: 'same', scope, text: 'two', occurredAt: 2, provenance: api },
        ],
      }),
    );
    expect(code).toBe('conflict');
    expect(await store.episodes.count({ scope })).toBe(0);
  });

  it('answers any keyword query without throwing, operator characters taken literally', async () => {
    const scope = { userId: 'kw' };
    await store.episodes.put({
      episodes: [
        { scope, text: 'net 30 payment terms agreed with ACME', occurredAt: 1, provenance: api },
        { scope, text: 'the quarterly report is late', occurredAt: 2, provenance: api },
      ],
    });
    for (const query of [
      "'",
      '"',
      '!',
      '&|',
      'a:*',
      '(((',
      "term' | 'x",
      '\\',
      '<->',
      '-payment',
      'OR',
      '',
    ]) {
      await expect(store.episodes.searchKeyword({ scope, query })).resolves.toBeInstanceOf(Array);
    }
    const hits = await store.episodes.searchKeyword({ scope, query: '"payment" -terms* report!' });
    expect(hits).toHaveLength(2);
    expect(hits[0]!.episode.text).toContain('payment terms');
    for (const hit of hits) expect(hit.score).toBeGreaterThan(0);
  });
});

describe('vector search', () => {
  const embedder = testEmbedder(32);

  it('never compares vectors of different dimensions and keeps one HNSW index per dimension', async () => {
    const scope = { userId: 'dims' };
    const [v32] = await embedder.embed({ texts: ['supplier lead time'] });
    const [v16] = await testEmbedder(16).embed({ texts: ['supplier lead time'] });
    await store.episodes.put({
      episodes: [
        { scope, text: 'a32', occurredAt: 1, provenance: api, embedding: v32 },
        { scope, text: 'a16', occurredAt: 2, provenance: api, embedding: v16 },
        { scope, text: 'none', occurredAt: 3, provenance: api },
      ],
    });
    expect((await store.episodes.searchVector({ scope, vector: v32! })).map((s) => s.episode.text)).toEqual([
      'a32',
    ]);
    expect((await store.episodes.searchVector({ scope, vector: v16! })).map((s) => s.episode.text)).toEqual([
      'a16',
    ]);
    // One index per dimension in each of the 16 partitions of the vectors, and none anywhere else.
    const indexes = await target.sql.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE '%USING hnsw%' ORDER BY indexname`,
      [schema],
    );
    const partitions = Array.from({ length: 16 }, (_, r) => r);
    expect(indexes.rows.map((r) => r.indexname).sort()).toEqual(
      [16, 32].flatMap((d) => partitions.map((r) => `episode_vectors_p${r}_hnsw_${d}`)).sort(),
    );
    for (const row of indexes.rows)
      expect(row.indexdef).toMatch(
        /INDEX episode_vectors_p(\d+)_hnsw_(\d+) ON \S+\.episode_vectors_p\1 USING hnsw .*halfvec\(\2\)\) \S*halfvec_cosine_ops\) WHERE \(dims = \2\)/,
      );
  });

  it('makes the index for a new dimension again when the transaction that first made it rolled back', async () => {
    const scope = { userId: 'dims-rollback' };
    const [v24] = await testEmbedder(24).embed({ texts: ['rolled back'] });
    await expect(
      store.transaction(async (tx) => {
        await tx.episodes.put({
          episodes: [{ scope, text: 'gone', occurredAt: 1, provenance: api, embedding: v24 }],
        });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const indexes = async () =>
      (
        await target.sql.query<{ indexname: string }>(
          `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE 'episode_vectors_p%_hnsw_24'`,
          [schema],
        )
      ).rows.length;
    expect(await indexes()).toBe(0);
    await store.episodes.put({
      episodes: [{ scope, text: 'kept', occurredAt: 2, provenance: api, embedding: v24 }],
    });
    expect(await indexes()).toBe(16);
  });

  it("finds a small tenant's episodes when another tenant holds many nearer vectors", async () => {
    // exactSearchBelow 0 forces the HNSW path, bounded to 200 index entries. Whether the crowd's
    // vectors share the small tenant's partition or not, the walk cannot find ten of its rows: the
    // exact fallback has to complete the answer, and no other tenant's row may come with it.
    const indexed = target.openStore({ exactSearchBelow: 0, hnswMaxScanTuples: 200 });
    const [query] = await embedder.embed({ texts: ['alpha beta gamma'] });
    const crowd = Array.from({ length: 1500 }, (_, i) => ({
      scope: { userId: 'crowd' },
      text: `crowd ${i}`,
      occurredAt: i,
      provenance: api,
      // Almost the query itself: every one of them is nearer than anything the small tenant has.
      embedding: query!.map((x, j) => x + (j === i % 32 ? 0.001 : 0)),
    }));
    for (let i = 0; i < crowd.length; i += 500)
      await indexed.episodes.put({ episodes: crowd.slice(i, i + 500) });
    const mine = await embedder.embed({ texts: ['alpha', 'beta gamma delta', 'unrelated words here'] });
    await indexed.episodes.put({
      episodes: mine.map((embedding, i) => ({
        scope: { userId: 'small' },
        text: `mine ${i}`,
        occurredAt: i,
        provenance: api,
        embedding,
      })),
    });
    const found = await indexed.episodes.searchVector({
      scope: { userId: 'small' },
      vector: query!,
      limit: 10,
    });
    expect(found.map((s) => s.episode.text).sort()).toEqual(['mine 0', 'mine 1', 'mine 2']);
    for (const hit of found) expect(hit.episode.scope).toEqual({ userId: 'small' });
    const scores = found.map((s) => s.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // The crowd sees only itself, best first.
    const crowdHits = await indexed.episodes.searchVector({
      scope: { userId: 'crowd' },
      vector: query!,
      limit: 5,
    });
    expect(crowdHits).toHaveLength(5);
    for (const hit of crowdHits) expect(hit.episode.scope).toEqual({ userId: 'crowd' });
  });

  it('builds the nearest-neighbour query in the shape the per-dimension HNSW index serves', async () => {
    const bigSchema = target.freshSchema('big');
    const indexed = target.openStore({ schema: bigSchema, exactSearchBelow: 0 });
    const vectors = await embedder.embed({
      texts: Array.from({ length: 600 }, (_, i) => `doc ${i} topic ${i % 7}`),
    });
    await indexed.episodes.put({
      episodes: vectors.map((embedding, i) => ({
        scope: { userId: 'big' },
        text: `doc ${i}`,
        occurredAt: i,
        provenance: api,
        embedding,
      })),
    });
    await target.sql.query(`ANALYZE "${bigSchema}".episode_vectors`);
    const vectorSchema = (
      await target.sql.query<{ name: string }>(
        `SELECT n.nspname AS name FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
      )
    ).rows[0]!.name;
    const plan = await target.sql.transaction(async (tx) => {
      // With 600 rows a sort is cheaper, and the planner rightly picks it; switching sorts off shows
      // the index matches the query's expression and partial-index predicate.
      await tx.query('SET LOCAL enable_sort = off');
      const literal = `[${vectors[3]!.join(',')}]`;
      const result = await tx.query<Record<string, string>>(
        `EXPLAIN SELECT id FROM "${bigSchema}".episode_vectors WHERE dims = 32 AND tenant_id = 'user:big' AND user_id = 'big'
          ORDER BY embedding_f4::"${vectorSchema}".halfvec(32) OPERATOR("${vectorSchema}".<=>) '${literal}'::"${vectorSchema}".halfvec(32) LIMIT 5`,
      );
      return result.rows.map((r) => Object.values(r)[0]).join('\n');
    });
    // Tenant and user by equality: one partition kept, its index walked.
    expect(new Set(plan.match(/episode_vectors_p\d+_hnsw_32/g))).toHaveProperty('size', 1);
    expect(new Set(plan.match(/ on episode_vectors_p\d+/g))).toHaveProperty('size', 1);
    const hits = await indexed.episodes.searchVector({
      scope: { userId: 'big' },
      vector: vectors[3]!,
      limit: 5,
    });
    expect(hits[0]!.episode.text).toBe('doc 3');
    expect(hits[0]!.score).toBeCloseTo(1, 5);
  });
});

describe('vector search in one statement', () => {
  const embedder = testEmbedder(32);
  /**
   * A store on one connection whose statements are recorded. The session turns sequential scans
   * and sorts off, so the planner walks the HNSW index even in tables this small (on a big table
   * it does so by itself); a search must leave the session's settings as it found them.
   */
  async function recordedStore(schema: string, exactSearchBelow = 0) {
    const statements: string[] = [];
    const values: Array<readonly unknown[] | undefined> = [];
    const forced = '-c enable_seqscan=off -c enable_sort=off';
    let base: SqlClient;
    if (target.kind === 'postgres') {
      const pool = new pg.Pool({ connectionString: target.url, max: 1, options: forced });
      pool.on('error', () => undefined);
      base = poolClient(pool, { ownsPool: true });
    } else {
      base = target.sql;
      await base.query('SET enable_seqscan = off');
      await base.query('SET enable_sort = off');
    }
    const client: SqlClient = {
      async query(text, params) {
        statements.push(text);
        values.push(params);
        return base.query(text, params);
      },
      async transaction(fn) {
        statements.push('BEGIN');
        return base.transaction((tx) =>
          fn({
            query: (text, params) => {
              statements.push(text);
              return tx.query(text, params);
            },
          }),
        );
      },
      async close() {
        if (target.kind === 'postgres') await base.close();
        else {
          await base.query('RESET enable_seqscan');
          await base.query('RESET enable_sort');
        }
      },
    };
    const store = postgresStore({ client, schema, exactSearchBelow });
    /** The plan of the `i`th recorded statement; run, with `analyze`, to show what it read. */
    const plan = async (i: number, analyze = false) =>
      (
        await base.query<Record<string, string>>(
          `EXPLAIN ${analyze ? '(ANALYZE, COSTS OFF, TIMING OFF) ' : ''}${statements[i]}`,
          values[i],
        )
      ).rows
        .map((row) => Object.values(row)[0])
        .join('\n');
    const clear = () => {
      statements.length = 0;
      values.length = 0;
    };
    /**
     * The vector searches among the statements: the count (with the exact search and the walk
     * beside it), a walk alone, an exact search alone.
     */
    const searches = () =>
      statements.flatMap((text) =>
        text.includes('vector_counts')
          ? ['counted']
          : text.includes('hnsw.iterative_scan')
            ? ['index']
            : /\bbest AS\b/.test(text)
              ? ['exact']
              : [],
      );
    /**
     * Which side the last counted statement ran, from its analyzed plan: 'walk' when only an HNSW
     * index of the vectors was read, 'exact' when only the exact search's scan of the episodes
     * (unaliased; the winners' rows are read as `episodes e`), 'neither' or 'both'.
     */
    const branch = async () => {
      const i = statements.findLastIndex((text) => text.includes('vector_counts'));
      const ran = (await plan(i, true)).split('\n').filter((line) => !line.includes('never executed'));
      const walked = ran.some((line) => /_hnsw_\d+ on episode_vectors_p\d+/.test(line));
      const read = ran.some((line) => / on episodes \(/.test(line));
      return walked ? (read ? 'both' : 'walk') : read ? 'exact' : 'neither';
    };
    return { store, statements, client, plan, clear, searches, branch };
  }

  /** `count` notes with embeddings, the `i`th stored at user `userOf(i)`, and a query vector. */
  async function notes(count: number, scopeOf: (i: number) => Scope) {
    const [query] = await embedder.embed({ texts: ['alpha beta gamma'] });
    const texts = Array.from({ length: count }, (_, i) => `note ${i} about topic ${i % 7}`);
    const vectors = await embedder.embed({ texts });
    const episodes = texts.map((text, i) => ({
      id: `n${String(i).padStart(3, '0')}`,
      scope: scopeOf(i),
      text,
      occurredAt: i,
      provenance: api,
      embedding: vectors[i]!,
    }));
    return { query: query!, episodes };
  }

  it('walks one partition of the vectors with its settings applied inside the one statement, and leaves none behind', async () => {
    const schema = target.freshSchema('walk');
    const [query] = await embedder.embed({ texts: ['alpha beta gamma'] });
    const loader = target.openStore({ schema });
    // 300 vectors in a thread of ann's she cannot see from her user scope (so in her partition),
    // all nearer to the query than any of her own 60.
    const crowd = Array.from({ length: 300 }, (_, i) => ({
      id: `c${i}`,
      scope: { userId: 'ann', threadId: 'crowd' },
      text: `crowd ${i}`,
      occurredAt: i,
      provenance: api,
      embedding: query!.map((x, j) => x + (j === i % 32 ? 0.001 * (1 + (i % 5)) : 0)),
    }));
    const mine = (
      await embedder.embed({ texts: Array.from({ length: 60 }, (_, i) => `mine ${i} topic ${i % 9}`) })
    ).map((embedding, i) => ({
      id: `m${i}`,
      scope: { userId: 'ann' },
      text: `mine ${i}`,
      occurredAt: i,
      provenance: api,
      embedding,
    }));
    await loader.episodes.put({ episodes: crowd });
    await loader.episodes.put({ episodes: mine });

    const { store, statements, client, plan, clear } = await recordedStore(schema);
    try {
      // The store's first call also finds its schema: done before the statements are counted.
      await store.episodes.count({ scope: { userId: 'ann' } });
      clear();
      const found = await store.episodes.searchVector({
        scope: { userId: 'ann' },
        vector: query!,
        limit: 10,
      });
      // One statement, no transaction: the walk, with iterative scanning on (without it the walk's
      // first 40 entries are all the crowd's, and an exact query would have followed), of the one
      // partition that holds ann's vectors.
      expect(statements).toHaveLength(1);
      expect(statements[0]).toContain('hnsw.iterative_scan');
      const walked = (await plan(0, true))
        .split('\n')
        .filter((line) => !line.includes('never executed'))
        .flatMap((line) => line.match(/episode_vectors_p\d+_hnsw_32/) ?? []);
      expect(walked).toHaveLength(1);
      // The same ids and scores as the exact answer (60 candidates: the walk finds them all).
      const exact = target.openStore({ schema, exactSearchBelow: 1_000 });
      const truth = await exact.episodes.searchVector({
        scope: { userId: 'ann' },
        vector: query!,
        limit: 10,
      });
      expect(found.map((hit) => hit.episode.id)).toEqual(truth.map((hit) => hit.episode.id));
      for (const [i, hit] of found.entries()) expect(hit.score).toBeCloseTo(truth[i]!.score, 12);
      // Nothing of the walk's settings is left on the connection.
      const settings = await client.query<Record<string, string>>(
        `SELECT current_setting('hnsw.iterative_scan', true) AS iterative, current_setting('hnsw.ef_search', true) AS ef,
                current_setting('hnsw.max_scan_tuples', true) AS tuples`,
      );
      expect(settings.rows[0]).toEqual({ iterative: 'off', ef: '40', tuples: '20000' });
    } finally {
      await store.close();
    }
  });

  it('completes a walk beside the count that stops short with the exact answer', async () => {
    const schema = target.freshSchema('short');
    const loader = target.openStore({ schema });
    // Ann's 150 episodes, all but three archived: the counts (of every status) put her past the
    // bound (at least ten; √(1.7 × 5 × 150) ≈ 36 once the index is analyzed), so the counted
    // statement walks, and the walk finds only the three active ones of the five asked for.
    const { query, episodes } = await notes(150, () => ({ userId: 'ann' }));
    await loader.episodes.put({
      episodes: episodes.map((e, i) => (i < 3 ? e : { ...e, status: 'archived' as const })),
    });
    const recorded = await recordedStore(schema, 10);
    const search = (store: Store) =>
      store.episodes.searchVector({ scope: { userId: 'ann' }, vector: query, limit: 5 });
    try {
      const found = await search(recorded.store);
      expect(recorded.searches()).toEqual(['counted', 'exact']);
      expect(await recorded.branch()).toBe('walk');
      const truth = await search(target.openStore({ schema, exactSearchBelow: 1_000 }));
      expect(found.map((hit) => hit.episode.id)).toEqual(truth.map((hit) => hit.episode.id));
      expect(found.map((hit) => hit.episode.id).sort()).toEqual(episodes.slice(0, 3).map((e) => e.id));
    } finally {
      await recorded.store.close();
      await loader.close();
    }
  });

  it("merges a walk of the user's partition with the exact answer for the rows above any user", async () => {
    const schema = target.freshSchema('branches');
    const ann = { orgId: 'acme', userId: 'ann' };
    // Forty of ann's, past the bound of ten: her branch walks. Three of the org's, nearest of all
    // to the query, within it: their branch is answered exactly, and the index is not walked for them.
    const { query, episodes } = await notes(43, (i) => (i < 40 ? ann : { orgId: 'acme' }));
    const org = episodes
      .slice(40)
      .map((e) => ({ ...e, embedding: query.map((x, j) => x + (j === 0 ? 1e-3 : 0)) }));
    const loader = target.openStore({ schema });
    await loader.episodes.put({ episodes: [...episodes.slice(0, 40), ...org] });
    const recorded = await recordedStore(schema, 10);
    const search = (store: Store) => store.episodes.searchVector({ scope: ann, vector: query, limit: 5 });
    try {
      const found = await search(recorded.store);
      expect(recorded.searches()).toEqual(['counted']);
      expect(await recorded.branch()).toBe('both');
      const truth = await search(target.openStore({ schema, exactSearchBelow: 1_000 }));
      expect(found.map((hit) => hit.episode.id)).toEqual(truth.map((hit) => hit.episode.id));
      expect(found.slice(0, 3).map((hit) => hit.episode.scope)).toEqual([
        { orgId: 'acme' },
        { orgId: 'acme' },
        { orgId: 'acme' },
      ]);
      expect(found.slice(3).map((hit) => hit.episode.scope)).toEqual([ann, ann]);
    } finally {
      await recorded.store.close();
      await loader.close();
    }
  });

  it('leaves out the branch above any user once a search finds no rows there, and takes it back when some appear', async () => {
    const schema = target.freshSchema('above');
    const ann = { orgId: 'acme', userId: 'ann' };
    const { query, episodes } = await notes(8, () => ann);
    const loader = target.openStore({ schema });
    await loader.episodes.put({ episodes });
    const recorded = await recordedStore(schema, 10);
    const search = () => recorded.store.episodes.searchVector({ scope: ann, vector: query, limit: 5 });
    /** How many user-level branches each recorded search statement has. */
    const branches = () =>
      recorded.statements
        .filter((text) => text.includes('vector_counts'))
        .map((text) => text.match(/\bcounted_\d+ AS/g)!.length);
    try {
      await search();
      await search();
      expect(branches()).toEqual([2, 1]);
      // A row of the org's, nearer than any of ann's: the next search finds it counted above her
      // user, runs again with that branch, and returns it.
      const [org] = await embedder.embed({ texts: ['alpha beta gamma'] });
      await loader.episodes.put({
        episodes: [
          {
            id: 'org',
            scope: { orgId: 'acme' },
            text: 'org',
            occurredAt: 9,
            provenance: api,
            embedding: org!,
          },
        ],
      });
      recorded.clear();
      const found = await search();
      expect(branches()).toEqual([1, 2]);
      expect(found[0]!.episode.id).toBe('org');
    } finally {
      await recorded.store.close();
      await loader.close();
    }
  });

  it('answers a scope with few candidates exactly in one statement, and one with many from the index without reading its rows first', async () => {
    const schema = target.freshSchema('few');
    const { query, episodes } = await notes(30, () => ({ userId: 'ann' }));
    const loader = target.openStore({ schema });
    await loader.episodes.put({ episodes: episodes.slice(0, 8) });
    const truth = async () =>
      (
        await target.openStore({ schema, exactSearchBelow: 1_000 }).episodes.searchVector({
          scope: { userId: 'ann' },
          vector: query!,
          limit: 5,
        })
      ).map((hit) => hit.episode.id);

    const stores = [await recordedStore(schema, 10)];
    const search = async (recorded = stores[0]!) =>
      (
        await recorded.store.episodes.searchVector({ scope: { userId: 'ann' }, vector: query!, limit: 5 })
      ).map((hit) => hit.episode.id);
    const kinds = (recorded = stores[0]!) => recorded.searches();
    try {
      // Eight candidates, at most ten allowed: the count and the exact distances in one statement,
      // the walk beside them never started.
      expect(await search()).toEqual(await truth());
      expect(kinds()).toEqual(['counted']);
      expect(await stores[0]!.branch()).toBe('exact');
      stores[0]!.clear();
      // Thirty: the counts say so before an episode row is read, and the same statement walks the
      // index instead.
      await loader.episodes.put({ episodes: episodes.slice(8) });
      expect(await search()).toEqual(await truth());
      expect(kinds()).toEqual(['counted']);
      expect(await stores[0]!.branch()).toBe('walk');
      // Nothing remembered makes that so: another store's first search does the same.
      stores.push(await recordedStore(schema, 10));
      expect(await search(stores[1])).toEqual(await truth());
      expect(kinds(stores[1])).toEqual(['counted']);
      expect(await stores[1]!.branch()).toBe('walk');
      // Deleted down to five, the scope is answered exactly again.
      await loader.episodes.delete({ scope: { userId: 'ann' }, ids: episodes.slice(5).map((e) => e.id) });
      stores[0]!.clear();
      expect(await search()).toEqual(await truth());
      expect(kinds()).toEqual(['counted']);
      expect(await stores[0]!.branch()).toBe('exact');
    } finally {
      for (const recorded of stores) await recorded.store.close();
      await loader.close();
    }
  });

  it('answers exactly past exactSearchBelow once the index is so big that a walk would visit more entries than the scope has', async () => {
    const schema = target.freshSchema('bound');
    // Thirty in ann's thread among two hundred in threads of hers she cannot see from it: all in
    // one partition of the vectors.
    const ann = { userId: 'ann', threadId: 'mine' };
    const { query, episodes } = await notes(230, (i) =>
      i < 30 ? ann : { userId: 'ann', threadId: `other${i % 4}` },
    );
    const loader = target.openStore({ schema });
    await loader.episodes.put({ episodes });
    const recorded = await recordedStore(schema, 10);
    const kinds = recorded.searches;
    const search = () => recorded.store.episodes.searchVector({ scope: ann, vector: query!, limit: 5 });
    try {
      // The index made empty, its size unknown to the planner: past ten candidates, the walk.
      await search();
      expect(kinds()).toEqual(['counted']);
      expect(await recorded.branch()).toBe('walk');
      // Analyzed, the partition's index holds 230 entries: a walk for five of ann's would visit
      // about 38 of them (one in 230 / 30 is hers), more than her 30 rows, and the bound
      // √(1.7 × 5 × 230) ≈ 44 takes the exact search.
      await target.sql.query(`ANALYZE "${schema}".episode_vectors`);
      recorded.clear();
      const found = await search();
      expect(kinds()).toEqual(['counted']);
      expect(await recorded.branch()).toBe('exact');
      const truth = await target
        .openStore({ schema, exactSearchBelow: 1_000 })
        .episodes.searchVector({ scope: ann, vector: query!, limit: 5 });
      expect(found.map((hit) => hit.episode.id)).toEqual(truth.map((hit) => hit.episode.id));
    } finally {
      await recorded.store.close();
      await loader.close();
    }
  });

  it('keeps the vector counts and the partitioned vectors in step with every write: batches across scopes and sizes, updates, deletes, forget', async () => {
    const schema = target.freshSchema('counts');
    const writer = target.openStore({ schema });
    const [v8] = await testEmbedder(8).embed({ texts: ['eight'] });
    const [v16] = await testEmbedder(16).embed({ texts: ['sixteen'] });
    const scopes = [
      { userId: 'ann' },
      { userId: 'ann', threadId: 't1' },
      { userId: 'bob' },
      { orgId: 'acme' },
    ];
    const batch = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: `e${from + i}`,
        scope: scopes[(from + i) % scopes.length]!,
        text: `episode ${from + i}`,
        occurredAt: from + i,
        provenance: api,
        // Two sizes and none: only episodes with embeddings are vector candidates.
        ...((from + i) % 3 === 0 ? {} : { embedding: (from + i) % 3 === 1 ? v8! : v16! }),
      }));
    await writer.episodes.put({ episodes: batch(0, 40) });
    await Promise.all([1, 2, 3].map((k) => writer.episodes.put({ episodes: batch(k * 100, 25) })));
    expect(await vectorDrift(target.sql, schema)).toEqual([]);
    const counted = await target.sql.query<{ n: string }>(
      `SELECT sum(episodes) AS n FROM "${schema}".vector_counts`,
    );
    expect(Number(counted.rows[0]!.n)).toBeGreaterThan(0);
    // Past the HNSW limit an embedding is searched exactly: counted, but no row among the vectors.
    const long = Array.from({ length: 2_001 }, (_, i) => Math.cos(i));
    await writer.episodes.put({
      episodes: [
        { id: 'long', scope: scopes[0]!, text: 'long', occurredAt: 1, provenance: api, embedding: long },
      ],
    });
    const rows = await target.sql.query<{ n: string }>(
      `SELECT count(*) AS n FROM "${schema}".episode_vectors`,
    );
    const embedded = await target.sql.query<{ n: string }>(
      `SELECT count(*) AS n FROM "${schema}".episodes WHERE dims IS NOT NULL`,
    );
    expect(Number(rows.rows[0]!.n)).toBe(Number(embedded.rows[0]!.n) - 1);
    // Status and time are search filters: the vectors follow them; importance is not, and changes nothing there.
    await writer.episodes.update({
      scope: scopes[0]!,
      id: 'e4',
      patch: { status: 'archived', occurredAt: 99 },
    });
    await writer.episodes.update({ scope: scopes[0]!, id: 'e8', patch: { importance: 0.9 } });
    await writer.episodes.update({ scope: scopes[1]!, id: 'e101', patch: { occurredAt: 7 } });
    expect(await vectorDrift(target.sql, schema)).toEqual([]);

    await writer.episodes.delete({ scope: { userId: 'ann' }, ids: ['e0', 'e1', 'e2', 'e101', 'e102', 'e5'] });
    expect(await vectorDrift(target.sql, schema)).toEqual([]);
    // A failed batch (an id taken) counts nothing.
    expect(await codeOf(writer.episodes.put({ episodes: [...batch(500, 3), ...batch(10, 1)] }))).toBe(
      'conflict',
    );
    expect(await vectorDrift(target.sql, schema)).toEqual([]);

    await writer.forget({ scope: { userId: 'ann' } });
    expect(await vectorDrift(target.sql, schema)).toEqual([]);
    const left = await target.sql.query<{ users: string[] }>(
      `SELECT array_agg(DISTINCT user_id ORDER BY user_id) AS users FROM "${schema}".vector_counts`,
    );
    expect(left.rows[0]!.users).toEqual(['', 'bob']);
  });
});

describe('access counts', () => {
  it('commits them without waiting for the WAL outside a transaction, and leaves a transaction as it was', async () => {
    const accessSchema = target.freshSchema('access');
    const statements: string[] = [];
    // One connection, so what a statement leaves behind would show in the next one.
    let base: SqlClient = target.sql;
    if (target.kind === 'postgres') {
      const pool = new pg.Pool({ connectionString: target.url, max: 1 });
      pool.on('error', () => undefined);
      base = poolClient(pool, { ownsPool: true });
    }
    const client: SqlClient = {
      query: (text, params) => {
        statements.push(text);
        return base.query(text, params);
      },
      transaction: (fn) =>
        base.transaction((tx) =>
          fn({
            query: (text, params) => {
              statements.push(text);
              return tx.query(text, params);
            },
          }),
        ),
      close: async () => {
        if (target.kind === 'postgres') await base.close();
      },
    };
    const recorded = postgresStore({ client, schema: accessSchema });
    const scope = { userId: 'reader' };
    try {
      await recorded.episodes.put({
        episodes: [{ id: 'seen', scope, text: 'seen', occurredAt: 1, provenance: api }],
      });
      const setting = async () =>
        (await base.query<{ value: string }>(`SELECT current_setting('synchronous_commit') AS value`))
          .rows[0]!.value;
      const initial = await setting();

      statements.length = 0;
      await recorded.episodes.recordAccess({ scope, ids: ['seen'], at: 10 });
      expect(statements.filter((s) => s.includes('access_count'))).toHaveLength(1);
      expect(statements.find((s) => s.includes('access_count'))).toContain(
        `set_config('synchronous_commit', 'off', true)`,
      );
      expect(await setting()).toBe(initial);

      statements.length = 0;
      const inside = await recorded.transaction(async (tx) => {
        await tx.episodes.recordAccess({ scope, ids: ['seen'], at: 20 });
        return (await tx.episodes.get({ scope, ids: ['seen'] }))[0];
      });
      expect(statements.find((s) => s.includes('access_count'))).not.toContain('synchronous_commit');
      expect(inside).toMatchObject({ accessCount: 2, lastAccessedAt: 20 });
      expect(await setting()).toBe(initial);
      expect((await recorded.episodes.get({ scope, ids: ['seen'] }))[0]).toMatchObject({ accessCount: 2 });
    } finally {
      await recorded.close();
    }
  });
});

describe('rows by id', () => {
  it('are found through the primary key where the planner takes a user for a handful of rows', async () => {
    const byId = target.freshSchema('by_id');
    const statements: Array<{ text: string; params: readonly unknown[] | undefined }> = [];
    const client: SqlClient = {
      query: (text, params) => {
        statements.push({ text, params });
        return target.sql.query(text, params);
      },
      transaction: (fn) => target.sql.transaction(fn),
      close: async () => undefined,
    };
    const recorded = postgresStore({ client, schema: byId, analyze: 'never' });
    try {
      // Twenty tenants of twenty users, ten episodes each. The planner multiplies the tenant's and
      // the org's selectivities as if they were independent, so it expects under one row at a
      // user's scope where there are ten, and reading them through a scope index then looks
      // cheaper to it than ten probes of the key (PostgreSQL 15 did, before the ids went first).
      for (let org = 0; org < 20; org++) {
        await recorded.episodes.put({
          episodes: Array.from({ length: 200 }, (_, i) => ({
            id: `e-${org}-${i % 20}-${Math.floor(i / 20)}`,
            scope: { orgId: `o${org}`, userId: `u${i % 20}` },
            text: `note ${i} for ${org}`,
            occurredAt: i,
            provenance: api,
          })),
        });
      }
      await target.sql.query(`ANALYZE "${byId}".episodes`);
      const reader = { orgId: 'o1', userId: 'u1', threadId: 't' };
      const ids = Array.from({ length: 10 }, (_, i) => `e-1-1-${i}`);
      statements.length = 0;
      await recorded.episodes.recordAccess({ scope: reader, ids, at: 5 });
      const found = await recorded.episodes.get({ scope: reader, ids: [...ids, 'e-2-1-0', 'e-1-2-0'] });
      expect(found.map((e) => [e.id, e.accessCount])).toEqual(ids.map((id) => [id, 1]));
      expect(statements).toHaveLength(2);
      for (const statement of statements) {
        const plan = (
          await target.sql.query<Record<string, string>>(`EXPLAIN ${statement.text}`, statement.params)
        ).rows
          .map((row) => Object.values(row)[0])
          .join('\n');
        // The ids are the index condition (the key's, or on PostgreSQL 18 a skip scan of another
        // index on the tenant and the id); the scope levels never are: no user's range is read.
        const conditions = plan.split('\n').filter((line) => line.includes('Index Cond'));
        expect(conditions).toHaveLength(1);
        expect(conditions[0]).toContain('id = ANY');
        expect(conditions[0]).not.toMatch(/org_id|user_id|agent_id|thread_id/);
      }
    } finally {
      await recorded.close();
    }
  });
});

describe('planner statistics', () => {
  /** The episodes table's row count as of its last ANALYZE (0 when never analyzed). */
  async function analyzedRows(of: string): Promise<number> {
    const result = await target.sql.query<{ rows: unknown }>(
      `SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = '"${of}".episodes'::regclass`,
    );
    return Math.max(0, Number(result.rows[0]!.rows));
  }

  async function putEpisodes(into: Store, count: number, from = 0): Promise<void> {
    const scope = { userId: 'grower' };
    for (let start = from; start < from + count; start += 100) {
      const batch = Array.from({ length: Math.min(100, from + count - start) }, (_, i) => ({
        scope,
        text: `note ${start + i} about supplier ${(start + i) % 7}`,
        occurredAt: start + i,
        provenance: api,
      }));
      await into.episodes.put({ episodes: batch });
    }
  }

  it('analyzes the growing tables once 500 episodes are written, in the background', async () => {
    const grown = target.freshSchema('stats');
    const growing = target.openStore({ schema: grown, analyze: 'always' });
    try {
      await putEpisodes(growing, 499);
      expect(await analyzedRows(grown)).toBe(0);
      await putEpisodes(growing, 1, 499);
    } finally {
      await growing.close(); // waits for the ANALYZE the 500th episode started
    }
    expect(await analyzedRows(grown)).toBe(500);
  });

  it('analyzes by itself where no autovacuum runs (`auto`), never with `never`', async () => {
    const autovacuum =
      target.kind === 'postgres' &&
      (await target.sql.query<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`)).rows[0]!
        .on;
    for (const mode of ['auto', 'never'] as const) {
      const schemaName = target.freshSchema(`stats_${mode}`);
      const grown = target.openStore({ schema: schemaName, analyze: mode });
      try {
        await putEpisodes(grown, 500);
      } finally {
        await grown.close();
      }
      // On a server running autovacuum, whether it has analyzed yet is up to its timer, so only
      // PGlite and servers without it (CI's) can tell: there `auto` must analyze, `never` must not.
      if (!autovacuum) expect(await analyzedRows(schemaName)).toBe(mode === 'auto' ? 500 : 0);
    }
  });
});

describe('listings read together', () => {
  /** The statement that answers several calls at once (every listing reads laterally, per scope). */
  const isGrouped = (text: string) => text.includes('AS c(call, since, until, size)');
  /** A store whose statements are recorded; `fail` makes the statements it picks fail. */
  async function recordedStore(schema: string, fail?: (text: string) => Error | undefined) {
    const statements: string[] = [];
    let base = target.sql;
    if (target.kind === 'postgres') {
      const pool = new pg.Pool({ connectionString: target.url, max: 4 });
      pool.on('error', () => undefined);
      base = poolClient(pool, { ownsPool: true });
    }
    const record = (text: string) => {
      statements.push(text);
      const error = fail?.(text);
      if (error) throw error;
    };
    const client: SqlClient = {
      async query(text, params) {
        record(text);
        return base.query(text, params);
      },
      transaction: (fn) =>
        base.transaction((tx) =>
          fn({
            query: async (text, params) => {
              record(text);
              return tx.query(text, params);
            },
          }),
        ),
      async close() {
        if (base !== target.sql) await base.close();
      },
    };
    const store = postgresStore({ client, schema });
    // Migrates the schema, so only the calls under test are recorded.
    await store.episodes.count({ scope: { userId: 'ann' } });
    statements.length = 0;
    return { store, statements };
  }

  type ListArgs = Parameters<Store['episodes']['list']>[0];
  const calls: ListArgs[] = [
    { scope: { userId: 'ann' }, limit: 3, since: 5, until: 20, order: 'desc' },
    { scope: { userId: 'ann' }, limit: 3, since: 5, until: 20, order: 'asc' },
    { scope: { userId: 'ann' }, limit: 100, order: 'asc' },
    { scope: { userId: 'ann' }, limit: 4, since: 10, order: 'desc' },
    { scope: { userId: 'ann', threadId: 't1' }, limit: 2, until: 30, order: 'desc' },
    { scope: { userId: 'ann' }, limit: 5, accessLevel: 0, order: 'asc' },
    { scope: { userId: 'ann' }, limit: 5, status: ['active', 'archived'], since: 0, until: 12 },
    { scope: { userId: 'bob' }, limit: 3, since: 8, until: 16, order: 'asc' },
    { scope: { userId: 'ann' }, limit: 5, since: 500, until: 600 },
  ];

  async function seeded(label: string) {
    const schema = target.freshSchema(label);
    const loader = target.openStore({ schema });
    // Two episodes at each time (ties go by id), ann's in two threads, some private or archived.
    const episodes = Array.from({ length: 40 }, (_, i) => ({
      id: `e${String(i).padStart(2, '0')}`,
      scope: { userId: i % 5 === 4 ? 'bob' : 'ann', ...(i % 3 === 0 ? { threadId: 't1' } : {}) },
      text: `turn ${i}`,
      occurredAt: Math.floor(i / 2),
      accessLevel: i % 4 === 1 ? 2 : 0,
      provenance: api,
    }));
    await loader.episodes.put({ episodes });
    for (const id of ['e07', 'e10']) {
      await loader.episodes.update({ scope: { userId: 'ann' }, id, patch: { status: 'archived' } });
    }
    return schema;
  }

  it('answers calls made together with one statement and the pages each call alone returns', async () => {
    const { store, statements } = await recordedStore(await seeded('together'));
    try {
      const alone = [];
      for (const call of calls) alone.push(await store.episodes.list(call));
      expect(statements).toHaveLength(calls.length);
      expect(alone.some((page) => page.nextCursor !== undefined)).toBe(true);
      expect(alone.some((page) => page.items.length === 0)).toBe(true);
      statements.length = 0;
      const together = await Promise.all(calls.map((call) => store.episodes.list(call)));
      expect(statements).toHaveLength(1);
      expect(together).toEqual(alone);
      // The cursors handed out read on as they would have.
      const next = alone.find((page) => page.nextCursor !== undefined)!;
      const call = calls[alone.indexOf(next)]!;
      expect((await store.episodes.list({ ...call, cursor: next.nextCursor })).items.length).toBeGreaterThan(
        0,
      );
    } finally {
      await store.close();
    }
  });

  it('runs a call with a cursor, and calls inside a transaction, on their own', async () => {
    const { store, statements } = await recordedStore(await seeded('cursor'));
    try {
      const first = await store.episodes.list({ scope: { userId: 'ann' }, limit: 3, order: 'asc' });
      const following = {
        scope: { userId: 'ann' },
        limit: 3,
        order: 'asc',
        cursor: first.nextCursor,
      } as const;
      const alone = [
        await store.episodes.list(following),
        ...(await Promise.all(calls.slice(0, 2).map((c) => store.episodes.list(c)))),
      ];
      statements.length = 0;
      const together = await Promise.all(
        [following, ...calls.slice(0, 2)].map((c) => store.episodes.list(c)),
      );
      expect(together).toEqual(alone);
      expect(statements).toHaveLength(2);
      expect(statements.filter((text) => isGrouped(text))).toHaveLength(1);
      statements.length = 0;
      const inTransaction = await store.transaction((tx) =>
        Promise.all(calls.slice(0, 2).map((c) => tx.episodes.list(c))),
      );
      expect(inTransaction).toEqual(alone.slice(1));
      expect(statements.filter((text) => isGrouped(text))).toHaveLength(0);
    } finally {
      await store.close();
    }
  });

  it('fails every call of a statement that fails with the mapped error', async () => {
    const timeout = () =>
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    const { store, statements } = await recordedStore(await seeded('failing'), (text) =>
      isGrouped(text) ? timeout() : undefined,
    );
    try {
      const results = await Promise.allSettled(calls.map((call) => store.episodes.list(call)));
      expect(statements).toHaveLength(1);
      for (const result of results) {
        expect(result.status).toBe('rejected');
        const error = (result as PromiseRejectedResult).reason;
        expect(StrataError.hasCode(error, 'store_unavailable')).toBe(true);
        expect((error as StrataError).retryable).toBe(true);
      }
      // A call alone does not use the failing statement.
      expect((await store.episodes.list(calls[0]!)).items.length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });

  it('reads float64 embeddings back bit for bit on every path, encoding them only in the outermost list', async () => {
    const { store, statements } = await recordedStore(target.freshSchema('float8'));
    try {
      // None of these values survives float32, and they spread over scopes the listing merges.
      const vectors = Array.from({ length: 12 }, (_, i) =>
        Array.from({ length: 16 }, (_, j) => Math.sin(i * 16 + j + 0.5) / 3 + (j === i ? 1 / 7 : 0)),
      );
      for (const v of vectors) expect(v.every((x) => Math.fround(x) !== x)).toBe(true);
      const episodes = vectors.map((embedding, i) => ({
        id: `f${i}`,
        scope: { userId: 'ann', ...(i % 3 === 0 ? {} : { threadId: `t${i % 3}` }) },
        text: `turn ${i} about lanterns`,
        occurredAt: i,
        embedding,
        provenance: api,
      }));
      const embeddingOf = new Map(episodes.map((e) => [e.id, e.embedding]));
      const expectExact = (records: Array<{ id: string; embedding?: number[] }>) => {
        expect(records.length).toBeGreaterThan(0);
        for (const r of records) expect(r.embedding).toEqual(embeddingOf.get(r.id));
      };
      const scope = { userId: 'ann', threadId: 't1' };
      expectExact(await store.episodes.put({ episodes }));
      expectExact(await store.episodes.get({ scope: { userId: 'ann' }, ids: ['f0', 'f1', 'f5'] }));
      statements.length = 0;
      expectExact((await store.episodes.list({ scope, limit: 3, order: 'desc' })).items);
      const pages = await Promise.all([
        store.episodes.list({ scope, limit: 2, until: 7, order: 'desc' }),
        store.episodes.list({ scope, limit: 2, since: 4, order: 'asc' }),
      ]);
      expectExact(pages.flatMap((page) => page.items));
      // A listing merges the ranges it reads per scope and cuts them at its limit: an encoding
      // inside a range would detoast every row the range read, not only those returned.
      const listings = statements.splice(0);
      expect(listings).toHaveLength(2);
      for (const text of listings) {
        expect(text).toContain('encode(');
        expect(text.split('CROSS JOIN LATERAL').slice(1).join('')).not.toContain('encode(');
      }
      expectExact(
        (await store.episodes.searchKeyword({ scope, query: 'lanterns', limit: 4 })).map((h) => h.episode),
      );
      expectExact(
        (await store.episodes.searchVector({ scope, vector: vectors[4]!, limit: 4 })).map((h) => h.episode),
      );
      expectExact(
        await store.episodes.findByHash({
          scope: episodes[1]!.scope,
          contentHashes: [contentHash('turn 1 about lanterns')],
        }),
      );
      expectExact([await store.episodes.update({ scope, id: 'f4', patch: { importance: 0.9 } })]);
    } finally {
      await store.close();
    }
  });
});

describe('closing', () => {
  it('fails calls on a closed store with store_unavailable that is not retryable', async () => {
    const closing = target.openStore();
    await closing.state.set({ scope: { userId: 'c' }, key: 'k', value: 1 });
    await closing.close();
    let error: unknown;
    try {
      await closing.state.get({ scope: { userId: 'c' }, key: 'k' });
    } catch (e) {
      error = e;
    }
    expect(StrataError.hasCode(error, 'store_unavailable')).toBe(true);
    expect((error as StrataError).retryable).toBe(false);
  });
});
