import type { Database } from '../driver/database.ts';

/** Embeddings longer than this are searched exactly (pgvector's HNSW takes `halfvec` up to 4,000). */
export const MAX_HNSW_DIMENSIONS = 2_000;

/** Advisory-lock class for index creation ("STRATV"), paired with the dimension. */
const INDEX_LOCK_CLASS = 0x535452415456n;

export function vectorIndexName(dimensions: number): string {
  return `episodes_hnsw_${dimensions}`;
}

/** The indexed expression (a query must repeat it to use the index): the float4 vector as `halfvec`. */
export function indexedVectorSql(vector: string, dimensions: number): string {
  return `(embedding_f4::${vector}.halfvec(${dimensions}))`;
}

/**
 * Episodes keep one `vector` column of any length plus its `dims`; each dimension gets its own
 * partial HNSW index over `embedding_f4::halfvec(dims)` with cosine distance, so vectors of different
 * lengths are never compared and each index holds one model's vectors. Half-precision entries make
 * the index half the size (more of it stays in shared buffers); the walk only picks candidates,
 * which are scored again with their exact float64 embeddings. The index for a dimension
 * is made the first time an episode of that dimension is stored (under a transaction-level
 * advisory lock, so concurrent writers make it once) and remembered per process.
 */
export class VectorIndexes {
  private readonly known = new Set<number>();
  private readonly db: Database;

  constructor(db: Database) {
    this.db = db;
  }

  async ensure(dimensions: number): Promise<void> {
    if (dimensions > MAX_HNSW_DIMENSIONS || this.known.has(dimensions)) return;
    const { schema, vector } = await this.db.names();
    const name = vectorIndexName(dimensions);
    const exists = await this.db.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [
      `${schema}.${name}`,
    ]);
    if (!exists.rows[0]?.found) {
      // Made inside the caller's transaction, the index exists only if that transaction commits:
      // look again next time instead of remembering it.
      const remember = !this.db.inTransaction();
      await this.db.atomic(async () => {
        const key = ((INDEX_LOCK_CLASS << 16n) | BigInt(dimensions)).toString();
        await this.db.query('SELECT pg_advisory_xact_lock($1::bigint)', [key]);
        await this.db.query(
          `CREATE INDEX IF NOT EXISTS ${name} ON ${schema}.episodes
             USING hnsw (${indexedVectorSql(vector, dimensions)} ${vector}.halfvec_cosine_ops)
             WHERE dims = ${dimensions}`,
        );
      });
      if (!remember) return;
    }
    this.known.add(dimensions);
  }
}
