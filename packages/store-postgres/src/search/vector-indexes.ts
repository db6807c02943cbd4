import type { Database } from '../driver/database.ts';
import type { Params } from '../sql/params.ts';

/** Embeddings longer than this are searched exactly (pgvector's HNSW takes `halfvec` up to 4,000). */
export const MAX_HNSW_DIMENSIONS = 2_000;

/**
 * Hash partitions of `episode_vectors` (see search/episode-vectors.ts), fixed when the schema is
 * made (migration 8): a user's vectors are all in one partition, with a sixteenth of the others.
 */
export const VECTOR_PARTITIONS = 16;

/** Advisory-lock class for index creation ("STRATV"), paired with the dimension. */
const INDEX_LOCK_CLASS = 0x535452415456n;

/** The partition of `episode_vectors` with hash remainder `r`. */
function vectorPartitionName(r: number): string {
  return `episode_vectors_p${r}`;
}

/** The HNSW index of partition `r` over the vectors of `dimensions` values. */
export function vectorIndexName(r: number, dimensions: number): string {
  return `episode_vectors_p${r}_hnsw_${dimensions}`;
}

/** The schema-qualified names of the `dimensions` indexes, partition 0 first. */
function vectorIndexNames(schema: string, dimensions: number): string[] {
  return Array.from({ length: VECTOR_PARTITIONS }, (_, r) => `${schema}.${vectorIndexName(r, dimensions)}`);
}

/** The indexed expression (a query must repeat it to use the index): the float4 vector as `halfvec`. */
export function indexedVectorSql(vector: string, dimensions: number, alias?: string): string {
  return `(${alias ? `${alias}.` : ''}embedding_f4::${vector}.halfvec(${dimensions}))`;
}

/** The statement that makes partition `r`'s index for `dimensions` (when it is missing). */
function vectorIndexSql(schema: string, vector: string, r: number, dimensions: number): string {
  return `CREATE INDEX IF NOT EXISTS ${vectorIndexName(r, dimensions)} ON ${schema}.${vectorPartitionName(r)}
      USING hnsw (${indexedVectorSql(vector, dimensions)} ${vector}.halfvec_cosine_ops)
      WHERE dims = ${dimensions}`;
}

/**
 * A scalar expression: the planner's count of entries (`pg_class.reltuples`, kept by VACUUM and
 * ANALYZE; unknown, -1, counts as 0) in the `dimensions` index of the partition that holds the
 * rows of `tenant` and `user` (SQL expressions), found by the server's own partition hash.
 */
export function partitionEntriesSql(
  schema: string,
  dimensions: number,
  tenant: string,
  user: string,
  p: Params,
): string {
  return `(SELECT GREATEST(c.reltuples, 0) FROM generate_series(0, ${VECTOR_PARTITIONS - 1}) r
      JOIN pg_class c ON c.oid = to_regclass((${p.texts(vectorIndexNames(schema, dimensions))})[r + 1])
     WHERE satisfies_hash_partition(${p.add(`${schema}.episode_vectors`)}::regclass, ${VECTOR_PARTITIONS}, r, ${tenant}::text, ${user}::text))`;
}

/**
 * Vectors live in `episode_vectors`, hash-partitioned by (tenant, user); each partition gets one
 * partial HNSW index per dimension over `embedding_f4::halfvec(dims)` with cosine distance, so
 * vectors of different lengths are never compared and a walk only meets the vectors of its
 * partition. Half-precision entries make the index half the size (more of it stays in shared
 * buffers); the walk only picks candidates, which are scored again with their exact float64
 * embeddings. A dimension's indexes are made the first time an episode of that dimension is stored
 * (under a transaction-level advisory lock, so concurrent writers make them once) and remembered
 * per process.
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
    const exists = await this.db.query<{ found: number }>(
      'SELECT count(to_regclass(name))::integer AS found FROM unnest($1::text[]) AS name',
      [vectorIndexNames(schema, dimensions)],
    );
    if (exists.rows[0]?.found !== VECTOR_PARTITIONS) {
      // Made inside the caller's transaction, the indexes exist only if that transaction commits:
      // look again next time instead of remembering them.
      const remember = !this.db.inTransaction();
      await this.db.atomic(async () => {
        const key = ((INDEX_LOCK_CLASS << 16n) | BigInt(dimensions)).toString();
        await this.db.query('SELECT pg_advisory_xact_lock($1::bigint)', [key]);
        for (let r = 0; r < VECTOR_PARTITIONS; r += 1) {
          await this.db.query(vectorIndexSql(schema, vector, r, dimensions));
        }
      });
      if (!remember) return;
    }
    this.known.add(dimensions);
  }
}
