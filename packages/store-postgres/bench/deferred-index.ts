import type pg from 'pg';

/** Drops the per-dimension HNSW index and returns a function that rebuilds it, timed in seconds. */
export async function deferIndex(
  admin: pg.Pool,
  schema: string,
  dimensions: number,
): Promise<() => Promise<number>> {
  const name = `episodes_hnsw_${dimensions}`;
  const found = await admin.query<{ def: string }>(
    `SELECT pg_get_indexdef(format('%I.%I', $1::text, $2::text)::regclass) AS def`,
    [schema, name],
  );
  const definition = found.rows[0]!.def;
  await admin.query(`DROP INDEX "${schema}"."${name}"`);
  return async () => {
    const client = await admin.connect();
    try {
      await client.query("SET maintenance_work_mem = '2GB'");
      const start = performance.now();
      await client.query(definition);
      return Math.round((performance.now() - start) / 100) / 10;
    } finally {
      client.release();
    }
  };
}
