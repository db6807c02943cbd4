/**
 * The versioned schema. Each migration is a list of single statements (PGlite runs one statement
 * per call) applied in one transaction; `schema_migrations` records which ran. Never edit a
 * released migration: add the next one.
 *
 * Every table leads with `tenant_id` (the scope's tenant root, see core's `tenantOf`) in its
 * primary key and in every index but one (`threads_by_id`, for `threads.lookup`), so a table can be distributed by tenant (Citus
 * `create_distributed_table('<schema>.episodes', 'tenant_id')`) and every read is a single-shard
 * query. Scope levels are NOT NULL with `''` for an unset level, so they index and compare
 * like any other column. Ids and keys use the "C" collation: byte order, the same order the
 * in-memory reference store sorts by.
 */

import { scopedSearchSql } from '../search/scoped-search.ts';

export interface SchemaNames {
  /** The quoted schema holding Strata's tables. */
  schema: string;
  /** The quoted schema holding the pgvector extension (its type and operators). */
  vector: string;
}

export interface Migration {
  version: number;
  name: string;
  statements(names: SchemaNames): string[];
}

const SCOPE_COLUMNS = `
  tenant_id text COLLATE "C" NOT NULL,
  org_id text COLLATE "C" NOT NULL DEFAULT '',
  user_id text COLLATE "C" NOT NULL DEFAULT '',
  agent_id text COLLATE "C" NOT NULL DEFAULT '',
  thread_id text COLLATE "C" NOT NULL DEFAULT ''`;

const SCOPE_KEY = 'tenant_id, org_id, user_id, agent_id, thread_id';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tables and indexes',
    statements: ({ schema: s, vector: v }) => [
      // ------------------------------------------------------------ threads and messages
      `CREATE TABLE ${s}.threads (${SCOPE_COLUMNS},
        title text,
        metadata jsonb NOT NULL,
        summary text,
        summarized_through_seq bigint,
        next_seq bigint NOT NULL DEFAULT 1,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        PRIMARY KEY (${SCOPE_KEY}))`,
      `CREATE INDEX threads_recent ON ${s}.threads (tenant_id, updated_at DESC)`,
      // threads.lookup finds a thread id in any tenant: the one index not led by the tenant.
      `CREATE INDEX threads_by_id ON ${s}.threads (thread_id)`,
      `CREATE TABLE ${s}.messages (${SCOPE_COLUMNS},
        seq bigint NOT NULL,
        id text COLLATE "C" NOT NULL,
        role text NOT NULL,
        content text NOT NULL,
        name text,
        tool_calls jsonb,
        tool_call_id text,
        created_at bigint NOT NULL,
        metadata jsonb NOT NULL,
        PRIMARY KEY (${SCOPE_KEY}, seq),
        UNIQUE (${SCOPE_KEY}, id))`,

      // ------------------------------------------------------------ episodes
      // fillfactor 70: free space in every page lets the frequent small updates (recordAccess after
      // each recall, importance and status changes) be HOT, rewritten within their page with no
      // new index entries, least of all in the costly HNSW index.
      `CREATE TABLE ${s}.episodes (${SCOPE_COLUMNS},
        id text COLLATE "C" NOT NULL,
        text text NOT NULL,
        role text,
        speaker text,
        occurred_at bigint NOT NULL,
        created_at bigint NOT NULL,
        importance double precision NOT NULL,
        access_count integer NOT NULL,
        last_accessed_at bigint,
        embedding double precision[],
        embedding_f4 ${v}.vector,
        dims integer,
        content_hash text COLLATE "C" NOT NULL,
        status text NOT NULL,
        merged_into text,
        access_level integer NOT NULL,
        provenance jsonb NOT NULL,
        metadata jsonb NOT NULL,
        search tsvector NOT NULL,
        doc_length integer NOT NULL,
        PRIMARY KEY (tenant_id, id),
        CHECK ((embedding IS NULL AND embedding_f4 IS NULL AND dims IS NULL) OR cardinality(embedding) = dims))
        WITH (fillfactor = 70)`,
      // Listing by time (and the time window of searches).
      `CREATE INDEX episodes_timeline ON ${s}.episodes (tenant_id, occurred_at, id)`,
      // Exact-scope reads: findByHash, counts, and the bounded count that picks exact or HNSW vector
      // search (dims and status included so it is answered from the index alone).
      `CREATE INDEX episodes_scope ON ${s}.episodes (${SCOPE_KEY}, content_hash) INCLUDE (dims, status)`,
      // Vector indexes are HNSW per dimension over \`embedding_f4::vector(dims)\`, made when a
      // dimension first appears (see search/vector-indexes.ts). \`embedding\` keeps the exact float64
      // values callers get back (large, so TOASTed out of line); \`embedding_f4\` is pgvector's float4
      // copy, half the size and stored in the row, which every distance is computed on.
      // Keyword search: a GIN index led by the tenant (btree_gin), so a search only ever reads the
      // reader's tenant's postings.
      `CREATE INDEX episodes_search ON ${s}.episodes USING gin (tenant_id, search)`,

      // BM25's collection statistics per tenant: episode count and total terms, kept in a few
      // slots per tenant (a writer adds to a random one) so concurrent writers of one tenant rarely
      // wait on the same row; a search sums the slots.
      `CREATE TABLE ${s}.keyword_stats (
        tenant_id text COLLATE "C" NOT NULL,
        slot smallint NOT NULL,
        documents bigint NOT NULL,
        terms bigint NOT NULL,
        PRIMARY KEY (tenant_id, slot))`,

      // ------------------------------------------------------------ facts
      `CREATE TABLE ${s}.facts (${SCOPE_COLUMNS},
        id text COLLATE "C" NOT NULL,
        entity_type text COLLATE "C" NOT NULL,
        entity_id text COLLATE "C" NOT NULL,
        key text COLLATE "C" NOT NULL,
        value jsonb NOT NULL,
        confidence double precision NOT NULL,
        status text NOT NULL,
        valid_from bigint NOT NULL,
        valid_to bigint,
        version integer NOT NULL,
        supersedes text COLLATE "C",
        superseded_by text COLLATE "C",
        last_confirmed_at bigint NOT NULL,
        access_level integer NOT NULL,
        provenance jsonb NOT NULL,
        created_at bigint NOT NULL,
        metadata jsonb NOT NULL,
        PRIMARY KEY (tenant_id, id))`,
      // At most one current (active or stale) version per key and exact scope: the partial unique
      // index that turns a lost race between two writers into a unique violation (`conflict`).
      `CREATE UNIQUE INDEX facts_current ON ${s}.facts (${SCOPE_KEY}, entity_type, entity_id, key)
        WHERE status IN ('active', 'stale')`,
      `CREATE UNIQUE INDEX facts_versions ON ${s}.facts (${SCOPE_KEY}, entity_type, entity_id, key, version)`,
      `CREATE INDEX facts_by_entity ON ${s}.facts (tenant_id, entity_type, entity_id, key)`,
      `CREATE INDEX facts_recent ON ${s}.facts (tenant_id, created_at DESC, id DESC)`,

      // ------------------------------------------------------------ graph
      `CREATE TABLE ${s}.nodes (${SCOPE_COLUMNS},
        id text COLLATE "C" NOT NULL,
        type text COLLATE "C" NOT NULL,
        name text NOT NULL,
        name_key text COLLATE "C" NOT NULL,
        aliases jsonb NOT NULL,
        name_keys text[] COLLATE "C" NOT NULL,
        properties jsonb NOT NULL,
        status text NOT NULL,
        access_level integer NOT NULL,
        provenance jsonb NOT NULL,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        PRIMARY KEY (tenant_id, id))`,
      `CREATE UNIQUE INDEX nodes_identity ON ${s}.nodes (${SCOPE_KEY}, type, name_key)`,
      `CREATE INDEX nodes_listing ON ${s}.nodes (tenant_id, created_at, id)`,
      // findNodes: normalised name or any alias.
      `CREATE INDEX nodes_names ON ${s}.nodes USING gin (tenant_id, name_keys)`,
      `CREATE TABLE ${s}.edges (${SCOPE_COLUMNS},
        id text COLLATE "C" NOT NULL,
        from_id text COLLATE "C" NOT NULL,
        to_id text COLLATE "C" NOT NULL,
        relation text COLLATE "C" NOT NULL,
        properties jsonb NOT NULL,
        confidence double precision NOT NULL,
        status text NOT NULL,
        valid_from bigint NOT NULL,
        valid_to bigint,
        access_level integer NOT NULL,
        provenance jsonb NOT NULL,
        created_at bigint NOT NULL,
        PRIMARY KEY (tenant_id, id))`,
      // Traversal walks both ways.
      `CREATE INDEX edges_out ON ${s}.edges (tenant_id, from_id)`,
      `CREATE INDEX edges_in ON ${s}.edges (tenant_id, to_id)`,
      `CREATE INDEX edges_listing ON ${s}.edges (tenant_id, created_at, id)`,
      `CREATE UNIQUE INDEX edges_active ON ${s}.edges (${SCOPE_KEY}, from_id, to_id, relation)
        WHERE status = 'active'`,

      // ------------------------------------------------------------ state, ledger
      `CREATE TABLE ${s}.state (${SCOPE_COLUMNS},
        key text COLLATE "C" NOT NULL,
        value jsonb NOT NULL,
        version integer NOT NULL,
        updated_at bigint NOT NULL,
        PRIMARY KEY (${SCOPE_KEY}, key))`,
      `CREATE TABLE ${s}.ledger (${SCOPE_COLUMNS},
        key text COLLATE "C" NOT NULL,
        status text NOT NULL,
        owner text COLLATE "C" NOT NULL,
        claimed_at bigint NOT NULL,
        lease_until bigint NOT NULL,
        completed_at bigint,
        result jsonb,
        PRIMARY KEY (${SCOPE_KEY}, key))`,

      // ------------------------------------------------------------ review queue, audit log
      `CREATE TABLE ${s}.review_items (${SCOPE_COLUMNS},
        id text COLLATE "C" NOT NULL,
        kind text NOT NULL,
        reason text NOT NULL,
        proposal jsonb NOT NULL,
        confidence double precision NOT NULL,
        status text NOT NULL,
        access_level integer NOT NULL,
        provenance jsonb NOT NULL,
        created_at bigint NOT NULL,
        decided_at bigint,
        decided_by text,
        note text,
        PRIMARY KEY (tenant_id, id))`,
      `CREATE INDEX review_queue ON ${s}.review_items (tenant_id, status, created_at, id)`,
      `CREATE TABLE ${s}.audit_log (${SCOPE_COLUMNS},
        seq bigint GENERATED ALWAYS AS IDENTITY,
        id text COLLATE "C" NOT NULL,
        at bigint NOT NULL,
        action text COLLATE "C" NOT NULL,
        actor text NOT NULL,
        subject_type text,
        subject_id text COLLATE "C",
        details jsonb NOT NULL,
        PRIMARY KEY (tenant_id, seq),
        UNIQUE (tenant_id, id))`,
      `CREATE INDEX audit_timeline ON ${s}.audit_log (tenant_id, at, seq)`,
    ],
  },
  {
    version: 2,
    name: 'BM25 document frequencies per tenant and lexeme; scope-led indexes for scopes.list',
    statements: ({ schema: s }) => [
      // BM25's document frequency of each lexeme per tenant, kept by every episode write in its
      // transaction (split in a few slots per lexeme, as keyword_stats is, so concurrent writers of
      // one tenant rarely wait on the same row; readers sum them). A search reads a few rows per
      // query term instead of counting the term's postings.
      `CREATE TABLE ${s}.keyword_terms (
        tenant_id text COLLATE "C" NOT NULL,
        lexeme text COLLATE "C" NOT NULL,
        slot smallint NOT NULL,
        documents bigint NOT NULL,
        PRIMARY KEY (tenant_id, lexeme, slot))`,
      `INSERT INTO ${s}.keyword_terms (tenant_id, lexeme, slot, documents)
        SELECT e.tenant_id, t.lexeme, 0, count(*)
          FROM ${s}.episodes e CROSS JOIN LATERAL unnest(tsvector_to_array(e.search)) AS t(lexeme)
         GROUP BY e.tenant_id, t.lexeme`,
      // Keyword search matches inside one GIN index over the search tsvector plus a lexeme naming
      // the row's exact scope (see search/scoped-search.ts), so a search reads only the reader's
      // matching rows. Document frequencies no longer come from this index (keyword_terms does),
      // so it need not lead with tenant_id: the scope lexeme holds the tenant.
      `DROP INDEX ${s}.episodes_search`,
      `CREATE INDEX episodes_keywords ON ${s}.episodes USING gin (${scopedSearchSql()})`,
      // scopes.list walks each table's scope-led index, one seek per distinct scope; these three
      // tables had none (edges only for active ones).
      `CREATE INDEX edges_scope ON ${s}.edges (${SCOPE_KEY})`,
      `CREATE INDEX review_scope ON ${s}.review_items (${SCOPE_KEY})`,
      `CREATE INDEX audit_scope ON ${s}.audit_log (${SCOPE_KEY})`,
    ],
  },
  {
    version: 3,
    name: 'BM25 postings per tenant, lexeme and scope',
    statements: ({ schema: s }) => [
      // One row per episode and lexeme (see search/keyword-postings.ts): a keyword search reads its
      // terms' postings in the reader's scopes from the primary key alone (index-only), where
      // matching through the GIN index read every matching episode's wide row and unnested its
      // whole tsvector. Every episode write keeps it in step, in the same statement.
      `CREATE TABLE ${s}.keyword_postings (
        tenant_id text COLLATE "C" NOT NULL,
        lexeme text COLLATE "C" NOT NULL,
        org_id text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        agent_id text COLLATE "C" NOT NULL,
        thread_id text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        tf integer NOT NULL,
        doc_length integer NOT NULL,
        status text NOT NULL,
        access_level integer NOT NULL,
        occurred_at bigint NOT NULL,
        PRIMARY KEY (tenant_id, lexeme, org_id, user_id, agent_id, thread_id, id)
          INCLUDE (tf, doc_length, status, access_level, occurred_at))`,
      // An episode's postings, for deletes and status or time changes.
      `CREATE INDEX keyword_postings_episode ON ${s}.keyword_postings (tenant_id, id)`,
      `INSERT INTO ${s}.keyword_postings (tenant_id, lexeme, org_id, user_id, agent_id, thread_id, id,
          tf, doc_length, status, access_level, occurred_at)
        SELECT e.tenant_id, u.lexeme, e.org_id, e.user_id, e.agent_id, e.thread_id, e.id,
               cardinality(u.positions), e.doc_length, e.status, e.access_level, e.occurred_at
          FROM ${s}.episodes e CROSS JOIN LATERAL unnest(e.search) AS u`,
      // Statistics now, so the first searches are planned on the index rather than on guesses.
      `ANALYZE ${s}.keyword_postings`,
    ],
  },
  {
    version: 4,
    name: 'HNSW indexes over halfvec',
    statements: ({ schema: s, vector: v }) => [
      // Each dimension's HNSW index is rebuilt over `embedding_f4::halfvec(dims)` (see
      // search/vector-indexes.ts): half the size, so more of it stays in shared buffers, and the
      // found rows are scored exactly anyway. Rebuilding reads every vector of that dimension.
      `DO $$
       DECLARE r record;
       BEGIN
         FOR r IN SELECT c.relname AS name, substring(c.relname FROM '[0-9]+$')::integer AS dims
                    FROM pg_class c
                   WHERE c.relnamespace = '${s}'::regnamespace AND c.relkind = 'i'
                     AND c.relname ~ '^episodes_hnsw_[0-9]+$'
                     AND NOT EXISTS (SELECT 1 FROM pg_index i JOIN pg_opclass o ON o.oid = i.indclass[0]
                                      WHERE i.indexrelid = c.oid AND o.opcname = 'halfvec_cosine_ops')
         LOOP
           EXECUTE format('DROP INDEX ${s}.%I', r.name);
           EXECUTE format('CREATE INDEX %I ON ${s}.episodes USING hnsw ((embedding_f4::${v}.halfvec(%s)) ${v}.halfvec_cosine_ops) WHERE dims = %s',
                          r.name, r.dims, r.dims);
         END LOOP;
       END $$`,
    ],
  },
  {
    version: 5,
    name: 'exact embeddings as raw float64 bytes',
    statements: ({ schema: s }) => [
      // The exact embedding becomes `embedding_f8 bytea`: its values as 8 big-endian bytes each
      // (what float8send writes), which reads select as stored and driver/float8-bytes.ts decodes.
      // The float8[] went through array_send on every read, which the server builds element by
      // element: the embeddings of 60 rows of 384 dimensions took 4.5 ms to read that way, 2.7 ms
      // as the bytea (p50; 0.9 ms for their ids alone).
      //
      // SET STORAGE EXTERNAL: out of line, as the array was (3 KiB at 384 dimensions, past the
      // TOAST threshold; the rows searches scan stay narrow), and never compressed. Full-precision
      // floats do not compress, so the default (EXTENDED) would try pglz on every write for
      // nothing; values that came from float32 do compress (to about two thirds), but would then
      // be decompressed on every read and, compressed, could stay inside the row.
      //
      // One ALTER TABLE: one rewrite of the table, which rebuilds every index (the HNSW ones
      // included) and checks the new constraint as it goes, under an exclusive lock on the table:
      // 100,000 episodes of 384 dimensions took 96 s with the default maintenance_work_mem, 50 s
      // with 1 GB (see the README). Not an UPDATE: most rows would find no room for a new version
      // in their page, and each of those would add an entry to every index, HNSW's the costliest. The
      // conversion is a function because ALTER … USING allows no subquery; it is set-based all the
      // same (one call per row, during the rewrite; 12 s of the above) and dropped afterwards.
      // Guarded by the column's type, so running it again changes nothing.
      `CREATE OR REPLACE FUNCTION ${s}.strata_float8_bytes(double precision[]) RETURNS bytea
         LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
         AS $$ SELECT COALESCE(string_agg(float8send(u.x), ''::bytea ORDER BY u.i), ''::bytea)
                 FROM unnest($1) WITH ORDINALITY AS u(x, i) $$`,
      `DO $$
       BEGIN
         IF EXISTS (SELECT 1 FROM pg_attribute
                     WHERE attrelid = '${s}.episodes'::regclass AND attname = 'embedding' AND NOT attisdropped
                       AND atttypid = 'double precision[]'::regtype) THEN
           ALTER TABLE ${s}.episodes
             DROP CONSTRAINT IF EXISTS episodes_check,
             ALTER COLUMN embedding TYPE bytea USING ${s}.strata_float8_bytes(embedding),
             ALTER COLUMN embedding SET STORAGE EXTERNAL,
             ADD CONSTRAINT episodes_embedding_check
               CHECK ((embedding IS NULL AND embedding_f4 IS NULL AND dims IS NULL) OR octet_length(embedding) = 8 * dims);
           ALTER TABLE ${s}.episodes RENAME COLUMN embedding TO embedding_f8;
         END IF;
       END $$`,
      `DROP FUNCTION ${s}.strata_float8_bytes(double precision[])`,
    ],
  },
  {
    version: 6,
    name: 'episodes listed per scope',
    statements: ({ schema: s }) => [
      // Listings (recall reads the turns around its best hits with them) walk one scope's timeline
      // at a time, each visible scope's range of this index read in order up to the limit, instead
      // of the tenant's timeline filtered row by row (see driver/episodes.ts, `timelineSql`).
      `CREATE INDEX IF NOT EXISTS episodes_scope_timeline ON ${s}.episodes (${SCOPE_KEY}, occurred_at, id)`,
      `DROP INDEX IF EXISTS ${s}.episodes_timeline`,
    ],
  },
  {
    version: 7,
    name: 'vector candidates counted per scope',
    statements: ({ schema: s }) => [
      // How many episodes with an embedding of each size every exact scope holds, in a few slots
      // per scope (a writer adds to a random one, as keyword_stats does): a vector search sums the
      // rows of its visible scopes to choose between the exact answer and the HNSW walk, instead of
      // counting candidate rows of the episodes table (see search/vector-counts.ts).
      `CREATE TABLE IF NOT EXISTS ${s}.vector_counts (${SCOPE_COLUMNS},
        dims integer NOT NULL,
        slot smallint NOT NULL,
        episodes bigint NOT NULL,
        PRIMARY KEY (${SCOPE_KEY}, dims, slot))`,
      // Counted afresh, so running it again (its record removed) leaves the counts right.
      `DELETE FROM ${s}.vector_counts`,
      `INSERT INTO ${s}.vector_counts (${SCOPE_KEY}, dims, slot, episodes)
        SELECT ${SCOPE_KEY}, dims, 0, count(*) FROM ${s}.episodes WHERE dims IS NOT NULL
         GROUP BY ${SCOPE_KEY}, dims`,
    ],
  },
  {
    version: 8,
    name: 'vectors partitioned by user',
    statements: ({ schema: s, vector: v }) => [
      // The vectors HNSW walks search move to a table of their own, hash-partitioned by (tenant,
      // user), with each partition's own HNSW index per dimension (see search/episode-vectors.ts):
      // a search names its tenant and user by equality and walks one partition's index. The key
      // holds the partition key's columns, as a partitioned table's must. fillfactor 90 leaves room
      // for status and time changes to stay HOT (no new HNSW entry).
      `CREATE TABLE IF NOT EXISTS ${s}.episode_vectors (${SCOPE_COLUMNS},
        id text COLLATE "C" NOT NULL,
        dims integer NOT NULL,
        status text NOT NULL,
        access_level integer NOT NULL,
        occurred_at bigint NOT NULL,
        embedding_f4 ${v}.vector NOT NULL,
        PRIMARY KEY (tenant_id, id, user_id))
        PARTITION BY HASH (tenant_id, user_id)`,
      ...Array.from(
        { length: 16 },
        (_, r) => `CREATE TABLE IF NOT EXISTS ${s}.episode_vectors_p${r} PARTITION OF ${s}.episode_vectors
          FOR VALUES WITH (MODULUS 16, REMAINDER ${r}) WITH (fillfactor = 90)`,
      ),
      // Copied afresh, so running it again (its record removed) leaves the copy right.
      `DELETE FROM ${s}.episode_vectors`,
      `INSERT INTO ${s}.episode_vectors (${SCOPE_KEY}, id, dims, status, access_level, occurred_at, embedding_f4)
        SELECT ${SCOPE_KEY}, id, dims, status, access_level, occurred_at, embedding_f4
          FROM ${s}.episodes WHERE dims <= 2000`,
      // Each dimension indexed over the whole table gets its index in every partition, built after
      // the rows are in (faster than row by row); the old index goes.
      `DO $$
       DECLARE d integer;
       BEGIN
         FOR d IN SELECT substring(c.relname FROM '[0-9]+$')::integer
                    FROM pg_class c
                   WHERE c.relnamespace = '${s}'::regnamespace AND c.relkind = 'i'
                     AND c.relname ~ '^episodes_hnsw_[0-9]+$'
         LOOP
           FOR r IN 0..15 LOOP
             EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON ${s}.%I USING hnsw ((embedding_f4::${v}.halfvec(%s)) ${v}.halfvec_cosine_ops) WHERE dims = %s',
                            'episode_vectors_p' || r || '_hnsw_' || d, 'episode_vectors_p' || r, d, d);
           END LOOP;
           EXECUTE format('DROP INDEX ${s}.%I', 'episodes_hnsw_' || d);
         END LOOP;
       END $$`,
      `ANALYZE ${s}.episode_vectors`,
    ],
  },
  {
    version: 9,
    name: 'facts listed by last confirmation',
    statements: ({ schema: s }) => [
      // facts.find with order 'confirmed' at one exact scope (a LangGraph store's items): the index
      // gives the rows in order, so a page reads its rows (and filtered-out ones before them), not
      // every fact of the scope.
      `CREATE INDEX IF NOT EXISTS facts_by_confirmed ON ${s}.facts
        (${SCOPE_KEY}, entity_type, key, last_confirmed_at DESC, entity_id, id)`,
    ],
  },
  {
    version: 10,
    name: 'threads listed by creation or update time per user',
    statements: ({ schema: s }) => [
      // threads.list of one user's threads (every level above the thread pinned) by either time:
      // the index gives the rows in order (read backwards for newest first), so a page reads its
      // own rows, not every thread of the tenant.
      `CREATE INDEX IF NOT EXISTS threads_by_created ON ${s}.threads
        (tenant_id, org_id, user_id, agent_id, created_at, thread_id)`,
      `CREATE INDEX IF NOT EXISTS threads_by_updated ON ${s}.threads
        (tenant_id, org_id, user_id, agent_id, updated_at, thread_id)`,
    ],
  },
  {
    version: 11,
    name: 'review items keyed by what they propose',
    statements: ({ schema: s }) => [
      // The engine looks a proposal up by its key before queueing it again (review.list with
      // dedupeKey): one index probe, however long the queue. Items stored before have no key.
      `ALTER TABLE ${s}.review_items ADD COLUMN IF NOT EXISTS dedupe_key text`,
      `CREATE INDEX IF NOT EXISTS review_by_dedupe_key ON ${s}.review_items (tenant_id, dedupe_key, created_at, id)`,
    ],
  },
];

/** The newest schema version this driver knows. */
export const SCHEMA_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));
