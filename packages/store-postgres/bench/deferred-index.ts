import type pg from 'pg';

/**
 * Drops the dimension's HNSW index in every partition of the vectors and returns a function that
 * rebuilds them, timed in seconds (the sum of the builds).
 */
export async function deferIndex(
  admin: pg.Pool,
  schema: string,
  dimensions: number,
): Promise<() => Promise<number>> {
  const found = await admin.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
      WHERE schemaname = $1 AND indexname LIKE 'episode_vectors\\_p%\\_hnsw\\_' || $2::text ORDER BY indexname`,
    [schema, dimensions],
  );
  for (const { name } of found.rows) await admin.query(`DROP INDEX "${schema}"."${name}"`);
  return async () => {
    const client = await admin.connect();
    try {
      await client.query("SET maintenance_work_mem = '2GB'");
      const start = performance.now();
      for (const { def } of found.rows) await client.query(def);
      return Math.round((performance.now() - start) / 100) / 10;
    } finally {
      client.release();
    }
  };
}
