import { StrataError, tenantOf } from '@strata-memory/core/store';
import { testEmbedder } from '@strata-memory/core/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../src/postgres-store.ts';
import { migrateSchema } from '../src/schema/migrate.ts';
import { SCHEMA_VERSION } from '../src/schema/migrations.ts';
import { openTarget, type TestTarget, vectorDrift } from './target.ts';

/** The migrations a schema at `version` still needs. */
const versionsAfter = (version: number) =>
  Array.from({ length: SCHEMA_VERSION - version }, (_, i) => version + 1 + i);

let target: TestTarget;

beforeAll(async () => {
  target = await openTarget();
});

afterAll(async () => {
  await target.close();
});

/** Connection options for `migratePostgres` against the test target. */
function connection(): { connectionString: string } | { client: TestTarget['sql'] } {
  // PGlite is one in-process database: share its client (migratePostgres closes only what it opened,
  // and the PGlite client does not own the database here).
  return target.url ? { connectionString: target.url } : { client: { ...target.sql, close: async () => {} } };
}

describe('migrations', () => {
  it('migrates once when many instances start at the same moment', async () => {
    const schema = target.freshSchema('mig');
    const results = await Promise.all(
      Array.from({ length: 6 }, () => migratePostgres({ ...connection(), schema })),
    );
    expect(results.filter((r) => r.applied.length > 0)).toHaveLength(1);
    for (const result of results) expect(result.version).toBe(SCHEMA_VERSION);
    const rows = await target.sql.query<{ version: number }>(
      `SELECT version FROM "${schema}".schema_migrations ORDER BY version`,
    );
    expect(rows.rows.map((r) => Number(r.version))).toEqual(
      Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1),
    );
  });

  it('has stores that open an already migrated schema at once find their data there', async () => {
    const schema = target.freshSchema('reopen');
    const stores = Array.from({ length: 4 }, () => target.openStore({ schema }));
    await Promise.all(
      stores.map((store, i) => store.state.set({ scope: { userId: `u${i}` }, key: 'k', value: i })),
    );
    const later = target.openStore({ schema });
    for (let i = 0; i < stores.length; i++) {
      expect(await later.state.get({ scope: { userId: `u${i}` }, key: 'k' })).toMatchObject({ value: i });
    }
  });

  it('refuses a schema written by a newer driver with schema_version', async () => {
    const schema = target.freshSchema('newer');
    await migratePostgres({ ...connection(), schema });
    await target.sql.query(
      `INSERT INTO "${schema}".schema_migrations (version, name) VALUES ($1, 'from the future')`,
      [SCHEMA_VERSION + 1],
    );
    const store = target.openStore({ schema });
    let error: unknown;
    try {
      await store.state.get({ scope: { userId: 'u' }, key: 'k' });
    } catch (e) {
      error = e;
    }
    expect(StrataError.hasCode(error, 'schema_version')).toBe(true);
  });

  it('rebuilds a vector-typed HNSW index of an older schema over halfvec', async () => {
    const schema = target.freshSchema('halfvec');
    await migratePostgres({ ...connection(), schema });
    const vector = (
      await target.sql.query<{ name: string }>(
        `SELECT n.nspname AS name FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
      )
    ).rows[0]!.name;
    // The index as versions before 4 made it, with the schema recorded at version 3.
    await target.sql.query(
      `CREATE INDEX episodes_hnsw_8 ON "${schema}".episodes
         USING hnsw ((embedding_f4::"${vector}".vector(8)) "${vector}".vector_cosine_ops) WHERE dims = 8`,
    );
    await target.sql.query(`DELETE FROM "${schema}".schema_migrations WHERE version >= 4`);
    const result = await migrateSchema(target.sql, schema, { upTo: 4 });
    expect(result.applied).toEqual([4]);
    const indexes = await target.sql.query<{ definition: string }>(
      `SELECT indexdef AS definition FROM pg_indexes WHERE schemaname = $1 AND indexname = 'episodes_hnsw_8'`,
      [schema],
    );
    expect(indexes.rows).toHaveLength(1);
    expect(indexes.rows[0]!.definition).toMatch(/halfvec\(8\)\) .*halfvec_cosine_ops\) WHERE \(dims = 8\)/);
  });

  it('turns the float8[] embeddings of a version 4 schema into raw float64 bytes, every value unchanged', async () => {
    const schema = target.freshSchema('f8');
    const { names } = await migrateSchema(target.sql, schema, { upTo: 4 });
    const scope = { userId: 'migrated' };
    const written: Record<string, number[] | undefined> = {
      // Values float32 would change, negative zero, the smallest and largest subnormals.
      awkward: [
        0.1,
        1 / 3,
        0.1 + 0.2,
        16_777_217,
        -0,
        5e-324,
        2.2250738585072009e-308,
        -1e300,
        Number.MAX_VALUE,
      ],
      long: Array.from({ length: 384 }, (_, i) => Math.sin(i + 1) / 7),
      none: undefined,
    };
    // Rows as the version 4 driver wrote them: the embedding a float8[] sent as text.
    for (const [id, embedding] of Object.entries(written)) {
      await target.sql.query(
        `INSERT INTO ${names.schema}.episodes (tenant_id, user_id, id, text, occurred_at, created_at, importance,
           access_count, embedding, embedding_f4, dims, content_hash, status, access_level, provenance, metadata,
           search, doc_length)
         VALUES ($1, $2, $3, $3, 1, 1, 0.5, 0, $4::float8[], $5::${names.vector}.vector, $6, $3, 'active', 0,
           '{"source":"api"}', '{}', ''::tsvector, 0)`,
        [
          tenantOf(scope),
          scope.userId,
          id,
          embedding?.map((x) => (Object.is(x, -0) ? '-0' : String(x))) ?? null,
          embedding ? `[${embedding.map(() => 0.5).join(',')}]` : null,
          embedding?.length ?? null,
        ],
      );
    }
    const types = () =>
      target.sql.query<{ name: string; type: string; storage: string }>(
        `SELECT attname AS name, atttypid::regtype::text AS type, attstorage AS storage FROM pg_attribute
          WHERE attrelid = $1::regclass AND attname LIKE 'embedding%' AND NOT attisdropped ORDER BY attname`,
        [`${names.schema}.episodes`],
      );
    expect((await types()).rows.map((r) => [r.name, r.type])).toEqual([
      ['embedding', 'double precision[]'],
      ['embedding_f4', 'vector'],
    ]);

    expect((await migrateSchema(target.sql, schema)).applied).toEqual(versionsAfter(4));
    expect((await types()).rows).toEqual([
      { name: 'embedding_f4', type: 'vector', storage: 'e' },
      { name: 'embedding_f8', type: 'bytea', storage: 'e' },
    ]);
    const read = async () => {
      const store = target.openStore({ schema });
      const episodes = await store.episodes.get({ scope, ids: Object.keys(written) });
      return Object.fromEntries(episodes.map((e) => [e.id, e.embedding]));
    };
    const migrated = await read();
    expect(migrated).toEqual(written);
    expect(Object.is(migrated.awkward?.[4], -0)).toBe(true);
    const stored = await target.sql.query<{ id: string; bytes: number | null }>(
      `SELECT id, octet_length(embedding_f8) AS bytes FROM ${names.schema}.episodes ORDER BY id`,
    );
    expect(stored.rows.map((r) => [r.id, r.bytes === null ? null : Number(r.bytes)])).toEqual([
      ['awkward', 72],
      ['long', 3072],
      ['none', null],
    ]);
    const helper = await target.sql.query<{ found: string | null }>(
      'SELECT to_regprocedure($1)::text AS found',
      [`${names.schema}.strata_float8_bytes(double precision[])`],
    );
    expect(helper.rows[0]!.found).toBeNull();
    await expect(
      target.sql.query(`UPDATE ${names.schema}.episodes SET dims = 383 WHERE id = 'long'`),
    ).rejects.toThrow(/episodes_embedding_check/);

    // Run again (its record removed), the migration finds the bytes in place and changes nothing.
    await target.sql.query(`DELETE FROM ${names.schema}.schema_migrations WHERE version >= 5`);
    expect((await migrateSchema(target.sql, schema)).applied).toEqual(versionsAfter(4));
    expect(await read()).toEqual(written);
  });

  it('lists episodes through a per-scope timeline index once a version 5 schema is migrated', async () => {
    const schema = target.freshSchema('timeline');
    const { names } = await migrateSchema(target.sql, schema, { upTo: 5 });
    const indexes = async () =>
      (
        await target.sql.query<{ name: string; definition: string }>(
          `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
            WHERE schemaname = $1 AND indexname LIKE 'episodes_%timeline' ORDER BY indexname`,
          [schema],
        )
      ).rows;
    expect((await indexes()).map((i) => i.name)).toEqual(['episodes_timeline']);
    const scope = { userId: 'ann' };
    const writer = target.openStore({ schema });
    await writer.episodes.put({
      episodes: [3, 1, 2].map((at) => ({
        id: `e${at}`,
        scope: { ...scope, ...(at === 2 ? { threadId: 't' } : {}) },
        text: `turn ${at}`,
        occurredAt: at,
        provenance: { source: 'api' as const },
      })),
    });
    await writer.close();
    expect(await indexes()).toEqual([
      {
        name: 'episodes_scope_timeline',
        definition: expect.stringMatching(
          /\(tenant_id, org_id, user_id, agent_id, thread_id, occurred_at, id\)$/,
        ) as string,
      },
    ]);
    const reader = target.openStore({ schema });
    const page = await reader.episodes.list({ scope: { ...scope, threadId: 't' }, limit: 10, order: 'asc' });
    expect(page.items.map((e) => e.id)).toEqual(['e1', 'e2', 'e3']);
    await reader.close();
    // Run again (its record removed), the migration changes nothing.
    await target.sql.query(`DELETE FROM ${names.schema}.schema_migrations WHERE version >= 6`);
    expect((await migrateSchema(target.sql, schema)).applied).toEqual(versionsAfter(5));
    expect((await indexes()).map((i) => i.name)).toEqual(['episodes_scope_timeline']);
  });

  it("counts a version 6 schema's vector candidates per scope, and counts them afresh when run again", async () => {
    const schema = target.freshSchema('counts');
    const writer = target.openStore({ schema });
    const [vector] = await testEmbedder(8).embed({ texts: ['counted'] });
    await writer.episodes.put({
      episodes: Array.from({ length: 12 }, (_, i) => ({
        id: `e${i}`,
        scope: i % 2 === 0 ? { userId: 'ann' } : { userId: 'ann', threadId: 't' },
        text: `turn ${i}`,
        occurredAt: i,
        provenance: { source: 'api' as const },
        ...(i % 4 === 3 ? {} : { embedding: vector! }),
      })),
    });
    await writer.close();
    // The schema as version 6 left it: no counts table.
    await target.sql.query(`DROP TABLE "${schema}".vector_counts`);
    await target.sql.query(`DELETE FROM "${schema}".schema_migrations WHERE version >= 7`);
    expect((await migrateSchema(target.sql, schema)).applied).toEqual(versionsAfter(6));
    expect(await vectorDrift(target.sql, schema)).toEqual([]);
    const counted = async () =>
      (
        await target.sql.query<{ thread: string; n: string }>(
          `SELECT thread_id AS thread, sum(episodes) AS n FROM "${schema}".vector_counts GROUP BY thread_id ORDER BY thread_id`,
        )
      ).rows.map((row) => [row.thread, Number(row.n)]);
    expect(await counted()).toEqual([
      ['', 6],
      ['t', 3],
    ]);
    await target.sql.query(`DELETE FROM "${schema}".schema_migrations WHERE version >= 7`);
    expect((await migrateSchema(target.sql, schema)).applied).toEqual(versionsAfter(6));
    expect(await counted()).toEqual([
      ['', 6],
      ['t', 3],
    ]);
  });

  it("moves a version 7 schema's vectors to the partitioned table, each dimension's index into every partition", async () => {
    const schema = target.freshSchema('split');
    const writer = target.openStore({ schema });
    const [v8] = await testEmbedder(8).embed({ texts: ['eight'] });
    const [v16] = await testEmbedder(16).embed({ texts: ['sixteen'] });
    const users = ['ann', 'bob', 'cy', 'dee', 'eve'];
    await writer.episodes.put({
      episodes: Array.from({ length: 40 }, (_, i) => ({
        id: `e${i}`,
        scope: { orgId: 'acme', userId: users[i % users.length]! },
        text: `turn ${i}`,
        occurredAt: i,
        provenance: { source: 'api' as const },
        status: i % 7 === 0 ? ('archived' as const) : ('active' as const),
        ...(i % 3 === 0 ? {} : { embedding: i % 3 === 1 ? v8! : v16! }),
      })),
    });
    const before = await writer.episodes.searchVector({
      scope: { orgId: 'acme', userId: 'ann' },
      vector: v8!,
    });
    await writer.close();
    const vector = (
      await target.sql.query<{ name: string }>(
        `SELECT n.nspname AS name FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'`,
      )
    ).rows[0]!.name;
    // The schema as version 7 left it: no vectors table, one HNSW index per dimension on the episodes.
    await target.sql.query(`DROP TABLE "${schema}".episode_vectors`);
    for (const d of [8, 16])
      await target.sql.query(
        `CREATE INDEX episodes_hnsw_${d} ON "${schema}".episodes
           USING hnsw ((embedding_f4::"${vector}".halfvec(${d})) "${vector}".halfvec_cosine_ops) WHERE dims = ${d}`,
      );
    await target.sql.query(`DELETE FROM "${schema}".schema_migrations WHERE version >= 8`);
    expect((await migrateSchema(target.sql, schema)).applied).toEqual(versionsAfter(7));
    expect(await vectorDrift(target.sql, schema)).toEqual([]);
    const indexes = await target.sql.query<{ name: string }>(
      `SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND indexdef LIKE '%USING hnsw%' ORDER BY indexname`,
      [schema],
    );
    expect(indexes.rows.map((row) => row.name).sort()).toEqual(
      [8, 16].flatMap((d) => Array.from({ length: 16 }, (_, r) => `episode_vectors_p${r}_hnsw_${d}`)).sort(),
    );
    // Run again (its record removed), the copy is made afresh, not doubled.
    await target.sql.query(`DELETE FROM "${schema}".schema_migrations WHERE version >= 8`);
    expect((await migrateSchema(target.sql, schema)).applied).toEqual(versionsAfter(7));
    expect(await vectorDrift(target.sql, schema)).toEqual([]);
    // Searches find what they found before, walking or not.
    for (const exactSearchBelow of [0, 1_000]) {
      const reader = target.openStore({ schema, exactSearchBelow });
      const after = await reader.episodes.searchVector({
        scope: { orgId: 'acme', userId: 'ann' },
        vector: v8!,
      });
      expect(after.map((hit) => hit.episode.id)).toEqual(before.map((hit) => hit.episode.id));
    }
  });

  it('leads every primary key and index but two with the tenant key', async () => {
    const schema = target.freshSchema('layout');
    await migratePostgres({ ...connection(), schema });
    const indexes = await target.sql.query<{ table: string; name: string; definition: string }>(
      `SELECT tablename AS table, indexname AS name, indexdef AS definition
         FROM pg_indexes WHERE schemaname = $1 AND tablename <> 'schema_migrations'`,
      [schema],
    );
    expect(indexes.rows.length).toBeGreaterThan(20);
    // The two exceptions, documented in the README: `threads.lookup` finds a thread id in any
    // tenant; the keyword index holds each row's exact scope, tenant included, as a lexeme.
    for (const index of indexes.rows) {
      if (index.name === 'threads_by_id') continue;
      if (index.name === 'episodes_keywords') {
        expect(index.definition).toMatch(
          /USING gin \(\(\(search \|\| array_to_tsvector\(ARRAY\[\('!'::text \|\| md5\(+tenant_id /,
        );
        continue;
      }
      expect(index.definition, index.name).toMatch(/USING (btree|gin) \(tenant_id[,)]/);
    }
  });
});
