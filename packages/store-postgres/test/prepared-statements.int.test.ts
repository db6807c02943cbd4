import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolClient } from '../src/client/pool-client.ts';
import { statementName } from '../src/client/prepared-statements.ts';
import type { SqlClient } from '../src/client/sql-client.ts';
import { postgresStore } from '../src/postgres-store.ts';
import { openTarget, PG_URL, type TestTarget } from './target.ts';

/**
 * Prepared statements on a real server: what the pool prepares, and how it recovers from a plan
 * that no longer fits its table and from a pooler that does not keep prepared statements. Each
 * pool here has one connection, so `pg_prepared_statements` read through it shows that
 * connection's. PGlite has no pool: its client never prepares.
 */

describe.runIf(PG_URL)('prepared statements (needs STRATA_PG_URL)', () => {
  let target: TestTarget;
  const pools: pg.Pool[] = [];

  const onePool = () => {
    const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
    pool.on('error', () => undefined);
    pools.push(pool);
    return pool;
  };
  const prepared = async (client: SqlClient) =>
    (await client.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map(
      (r) => r.name,
    );

  beforeAll(async () => {
    target = await openTarget();
  });

  afterAll(async () => {
    await target.close();
    await Promise.all(pools.map((pool) => pool.end()));
  });

  it("prepares a store's recurring statements, and none with prepareStatements: false", async () => {
    const scope = { userId: 'prepared' };
    const run = async (prepareStatements: boolean) => {
      const pool = onePool();
      const store = postgresStore({ pool, schema: target.freshSchema('prep'), prepareStatements });
      await store.episodes.put({
        episodes: [
          { scope, text: 'the supplier ships on tuesdays', occurredAt: 1, provenance: { source: 'api' } },
        ],
      });
      const found: number[] = [];
      for (let i = 0; i < 4; i++) {
        found.push((await store.episodes.searchKeyword({ scope, query: 'supplier tuesdays' })).length);
      }
      const names = await prepared(poolClient(pool, { ownsPool: false, prepareStatements: false }));
      await store.close();
      return { found, names };
    };
    const on = await run(true);
    expect(on.found).toEqual([1, 1, 1, 1]);
    expect(on.names.length).toBeGreaterThan(0);
    expect(on.names.every((name) => name.startsWith('strata_'))).toBe(true);
    const off = await run(false);
    expect(off.found).toEqual([1, 1, 1, 1]);
    expect(off.names).toEqual([]);
  });

  it('runs a prepared SELECT * unprepared once its table changed, and returns the new column', async () => {
    const schema = target.freshSchema('prep');
    await target.sql.query(`CREATE SCHEMA "${schema}"`);
    await target.sql.query(`CREATE TABLE "${schema}".t (id int PRIMARY KEY)`);
    await target.sql.query(`INSERT INTO "${schema}".t VALUES (1)`);
    const client = poolClient(onePool(), { ownsPool: false });
    const text = `SELECT * FROM "${schema}".t WHERE id = $1`;
    for (let i = 0; i < 4; i++) expect((await client.query(text, [1])).rows).toEqual([{ id: 1 }]);
    expect(await prepared(client)).toContain(statementName(text));

    await target.sql.query(`ALTER TABLE "${schema}".t ADD COLUMN extra int NOT NULL DEFAULT 7`);
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, extra: 7 }]);
    expect((await client.query(text, [1])).rows).toEqual([{ id: 1, extra: 7 }]);
  });

  it('switches preparation off when the server lost its statements (a pooler switched connections)', async () => {
    const client = poolClient(onePool(), { ownsPool: false });
    const text = 'SELECT $1::int + 1 AS n';
    for (let i = 0; i < 4; i++) expect((await client.query(text, [i])).rows).toEqual([{ n: i + 1 }]);
    expect(await prepared(client)).toEqual([statementName(text)]);

    // What a pooler in transaction mode does: the next statement lands on a server connection
    // that never saw the PREPARE.
    await client.query('DEALLOCATE ALL');
    expect((await client.query(text, [10])).rows).toEqual([{ n: 11 }]);
    expect((await client.query(text, [20])).rows).toEqual([{ n: 21 }]);
    expect(await prepared(client)).toEqual([]);
  });

  it('switches preparation off when its name is already taken on the connection', async () => {
    const client = poolClient(onePool(), { ownsPool: false });
    const text = 'SELECT $1::int * 2 AS n';
    await client.query(`PREPARE ${statementName(text)} AS SELECT 0`);
    for (let i = 0; i < 5; i++) expect((await client.query(text, [i])).rows).toEqual([{ n: i * 2 }]);
    // node-postgres closes the name its failed Parse used (the other client's statement, here), and
    // nothing is prepared again.
    expect(await prepared(client)).toEqual([]);
  });

  it('still raises the errors a statement itself causes', async () => {
    const client = poolClient(onePool(), { ownsPool: false });
    const text = 'SELECT 1 / $1::int AS n';
    for (let i = 0; i < 4; i++) expect((await client.query(text, [1])).rows).toEqual([{ n: 1 }]);
    await expect(client.query(text, [0])).rejects.toMatchObject({ code: '22012' });
    expect((await client.query(text, [1])).rows).toEqual([{ n: 1 }]);
    expect(await prepared(client)).toEqual([statementName(text)]);
  });
});
