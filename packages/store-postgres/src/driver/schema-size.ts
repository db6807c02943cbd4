import type { StoreSize } from '@strata-memory/core/store';
import type { Database } from './database.ts';

/**
 * The space Strata's schema takes in the database: each table with its indexes and TOAST data
 * (`pg_total_relation_size`), largest first.
 */
export async function schemaSize(db: Database): Promise<StoreSize> {
  await db.names();
  const result = await db.query<{ name: string; bytes: string }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid)::text AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')
      ORDER BY pg_total_relation_size(c.oid) DESC, c.relname`,
    [db.schema],
  );
  const parts = result.rows.map((row) => ({ name: `${db.schema}.${row.name}`, bytes: Number(row.bytes) }));
  return { bytes: parts.reduce((sum, part) => sum + part.bytes, 0), parts };
}
