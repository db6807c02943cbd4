import type { DatabaseSync } from 'node:sqlite';
import { StrataError } from '@strata-memory/core/store';
import { Statements } from '../database/statements.ts';
import { decodeEmbedding, euclideanNorm } from '../episodes/episode-rows.ts';
import { QuantisedVectors } from '../episodes/quantised-vectors.ts';
import { SignCodes } from '../episodes/sign-codes.ts';
import { isIndexable, scopeHash } from '../episodes/vector-index.ts';
import { type ScopeRow, scopeOfRow, scopeValues } from '../sql/scope-sql.ts';

/**
 * The schema, as an ordered list of migrations. Each runs once, in a transaction, and the schema
 * version stored in `strata_meta` records how far a database has come. Released migrations never
 * change: a schema change is a new migration appended at the end.
 *
 * Conventions every table follows:
 * - It leads with the tenant column and the four scope levels (`''` for an unset level), and its
 *   indexes lead with them too, so reads filter by scope inside the index and data can be
 *   partitioned by tenant.
 * - JSON values (metadata, provenance, fact values) are stored as JSON text.
 * - Times are epoch milliseconds.
 */
export interface Migration {
  version: number;
  description: string;
  sql: string;
  /** Work SQL alone cannot express (per-table DDL), run after `sql` in the same transaction. */
  apply?: (db: DatabaseSync) => void;
}

/** The five scope columns every table leads with. */
const scopeColumns = `
  tenant TEXT NOT NULL,
  org_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  thread_id TEXT NOT NULL`;

const scopeKey = 'tenant, org_id, user_id, agent_id, thread_id';

/**
 * An episode's exact scope as one FTS token: `s`, the hex of its five scope columns joined by
 * U+001F (which ids may not contain), and `0`. `scopeToken` in keyword-query.ts builds the same.
 */
function SCOPE_TOKEN_SQL(prefix: string): string {
  const c = (name: string) => `${prefix}${name}`;
  return `'s' || hex(${c('tenant')} || char(31) || ${c('org_id')} || char(31) || ${c('user_id')} || char(31) || ${c('agent_id')} || char(31) || ${c('thread_id')}) || '0'`;
}

/** The FTS5 tokenizer of the episode index (also used to turn query words into index terms). */
export const FTS_TOKENIZER = `"porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'"`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'threads, messages, episodes, facts, graph, state, ledger, review queue, audit log',
    sql: `
CREATE TABLE strata_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE threads (${scopeColumns},
  title TEXT,
  metadata TEXT NOT NULL,
  summary TEXT,
  summarized_through_seq INTEGER,
  next_seq INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (${scopeKey})
) STRICT, WITHOUT ROWID;
CREATE INDEX threads_by_thread_id ON threads (thread_id);

CREATE TABLE messages (${scopeColumns},
  seq INTEGER NOT NULL,
  id TEXT NOT NULL,
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  name TEXT,
  tool_calls TEXT,
  tool_call_id TEXT,
  created_at INTEGER NOT NULL,
  metadata TEXT NOT NULL,
  PRIMARY KEY (${scopeKey}, seq),
  FOREIGN KEY (${scopeKey}) REFERENCES threads (${scopeKey}) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX messages_by_id ON messages (${scopeKey}, id);

CREATE TABLE episodes (
  row_id INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,${scopeColumns},
  text TEXT NOT NULL,
  role TEXT,
  speaker TEXT,
  occurred_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  importance REAL NOT NULL,
  access_count INTEGER NOT NULL,
  last_accessed_at INTEGER,
  dimensions INTEGER,
  embedding_norm REAL,
  content_hash TEXT NOT NULL,
  status TEXT NOT NULL,
  merged_into TEXT,
  access_level INTEGER NOT NULL,
  provenance TEXT NOT NULL,
  metadata TEXT NOT NULL
) STRICT;
CREATE INDEX episodes_by_scope ON episodes (${scopeKey}, occurred_at);
CREATE INDEX episodes_by_time ON episodes (tenant, occurred_at);
CREATE INDEX episodes_by_hash ON episodes (tenant, content_hash);
CREATE INDEX episodes_zero_vectors ON episodes (tenant, dimensions) WHERE embedding_norm = 0;

-- Embeddings beside their episodes (float64 bytes, so a vector reads back exactly as written),
-- which keeps episode rows small for the scans that filter them.
CREATE TABLE episode_embeddings (
  row_id INTEGER PRIMARY KEY REFERENCES episodes (row_id) ON DELETE CASCADE,
  embedding BLOB NOT NULL
) STRICT;

CREATE TABLE facts (
  id TEXT PRIMARY KEY,${scopeColumns},
  entity_type TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  confidence REAL NOT NULL,
  status TEXT NOT NULL,
  valid_from INTEGER NOT NULL,
  valid_to INTEGER,
  version INTEGER NOT NULL,
  supersedes TEXT,
  superseded_by TEXT,
  last_confirmed_at INTEGER NOT NULL,
  access_level INTEGER NOT NULL,
  provenance TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  metadata TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX facts_by_key ON facts (tenant, entity_type, entity_id, key);
CREATE INDEX facts_by_scope ON facts (${scopeKey}, created_at);
CREATE UNIQUE INDEX facts_current ON facts (${scopeKey}, entity_type, entity_id, key)
  WHERE status IN ('active', 'stale');
CREATE UNIQUE INDEX facts_versions ON facts (${scopeKey}, entity_type, entity_id, key, version);

CREATE TABLE nodes (
  id TEXT PRIMARY KEY,${scopeColumns},
  type TEXT NOT NULL,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  aliases TEXT NOT NULL,
  properties TEXT NOT NULL,
  status TEXT NOT NULL,
  access_level INTEGER NOT NULL,
  provenance TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE UNIQUE INDEX nodes_by_key ON nodes (${scopeKey}, type, name_key);
CREATE INDEX nodes_by_creation ON nodes (tenant, created_at);

-- Every normalised name a node answers to (its name and each alias), for findNodes.
CREATE TABLE node_names (
  tenant TEXT NOT NULL,
  name_key TEXT NOT NULL,
  node_id TEXT NOT NULL REFERENCES nodes (id) ON DELETE CASCADE,
  PRIMARY KEY (tenant, name_key, node_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX node_names_by_node ON node_names (node_id);

CREATE TABLE edges (
  id TEXT PRIMARY KEY,${scopeColumns},
  from_id TEXT NOT NULL REFERENCES nodes (id) ON DELETE CASCADE,
  to_id TEXT NOT NULL REFERENCES nodes (id) ON DELETE CASCADE,
  relation TEXT NOT NULL,
  properties TEXT NOT NULL,
  confidence REAL NOT NULL,
  status TEXT NOT NULL,
  valid_from INTEGER NOT NULL,
  valid_to INTEGER,
  access_level INTEGER NOT NULL,
  provenance TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
-- Node ids are unique across tenants, so these serve both traversal and the cascades.
CREATE INDEX edges_from ON edges (from_id);
CREATE INDEX edges_to ON edges (to_id);
CREATE INDEX edges_by_creation ON edges (tenant, created_at);
CREATE UNIQUE INDEX edges_active ON edges (${scopeKey}, from_id, to_id, relation) WHERE status = 'active';

CREATE TABLE state (${scopeColumns},
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  version INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (${scopeKey}, key)
) STRICT, WITHOUT ROWID;

CREATE TABLE ledger (${scopeColumns},
  key TEXT NOT NULL,
  status TEXT NOT NULL,
  owner TEXT NOT NULL,
  claimed_at INTEGER NOT NULL,
  lease_until INTEGER NOT NULL,
  completed_at INTEGER,
  result TEXT,
  PRIMARY KEY (${scopeKey}, key)
) STRICT, WITHOUT ROWID;

CREATE TABLE review_items (
  id TEXT PRIMARY KEY,${scopeColumns},
  kind TEXT NOT NULL,
  reason TEXT NOT NULL,
  proposal TEXT NOT NULL,
  confidence REAL NOT NULL,
  status TEXT NOT NULL,
  access_level INTEGER NOT NULL,
  provenance TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  decided_at INTEGER,
  decided_by TEXT,
  note TEXT
) STRICT, WITHOUT ROWID;
CREATE INDEX review_by_scope ON review_items (${scopeKey}, created_at);

CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,${scopeColumns},
  at INTEGER NOT NULL,
  action TEXT NOT NULL,
  actor TEXT NOT NULL,
  subject_type TEXT,
  subject_id TEXT,
  details TEXT NOT NULL
) STRICT;
CREATE INDEX audit_by_scope ON audit_log (${scopeKey}, at);

-- One vec0 table per embedding size is created on first use; this lists them.
CREATE TABLE vector_indexes (
  dimensions INTEGER PRIMARY KEY,
  table_name TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

-- Indexed vectors per tenant and size, to choose between exact and coarse-then-exact search.
CREATE TABLE vector_partitions (
  tenant TEXT NOT NULL,
  dimensions INTEGER NOT NULL,
  vectors INTEGER NOT NULL,
  PRIMARY KEY (tenant, dimensions)
) STRICT, WITHOUT ROWID;
`,
  },
  {
    version: 2,
    description: 'full-text index over episodes (FTS5, porter + unicode61, BM25)',
    sql: `
-- Text as the keyword index reads it: scripts written without spaces (Han, Hiragana,
-- Katakana) spaced out one character per term when the episode was stored, so a word inside a
-- sentence still matches. Null when the text indexes as is.
ALTER TABLE episodes ADD COLUMN search_text TEXT;

-- The FTS table's external content. scope_key is the episode's exact scope as one token (hex,
-- ending in a digit so the stemmer leaves it alone): a search ORs the tokens of the scopes the
-- reader may see, so the index itself skips every other scope's rows.
CREATE VIEW episodes_search (row_id, body, scope_key) AS
  SELECT row_id, coalesce(search_text, text), ${SCOPE_TOKEN_SQL('')} FROM episodes;

CREATE VIRTUAL TABLE episodes_fts USING fts5(
  body,
  scope_key,
  content = 'episodes_search',
  content_rowid = 'row_id',
  tokenize = ${FTS_TOKENIZER}
);

CREATE TRIGGER episodes_fts_insert AFTER INSERT ON episodes BEGIN
  INSERT INTO episodes_fts (rowid, body, scope_key)
  VALUES (new.row_id, coalesce(new.search_text, new.text), ${SCOPE_TOKEN_SQL('new.')});
END;

CREATE TRIGGER episodes_fts_delete AFTER DELETE ON episodes BEGIN
  INSERT INTO episodes_fts (episodes_fts, rowid, body, scope_key)
  VALUES ('delete', old.row_id, coalesce(old.search_text, old.text), ${SCOPE_TOKEN_SQL('old.')});
END;

CREATE TRIGGER episodes_fts_update
AFTER UPDATE OF text, search_text, tenant, org_id, user_id, agent_id, thread_id ON episodes BEGIN
  INSERT INTO episodes_fts (episodes_fts, rowid, body, scope_key)
  VALUES ('delete', old.row_id, coalesce(old.search_text, old.text), ${SCOPE_TOKEN_SQL('old.')});
  INSERT INTO episodes_fts (rowid, body, scope_key)
  VALUES (new.row_id, coalesce(new.search_text, new.text), ${SCOPE_TOKEN_SQL('new.')});
END;

-- Episodes stored before this migration.
INSERT INTO episodes_fts (episodes_fts) VALUES ('rebuild');
`,
  },
  {
    version: 3,
    description: 'edges indexed by scope (scopes.list); vector index partitioned by exact scope',
    sql: `
-- scopes.list walks every table's scope-led index; edges had one only for active edges.
CREATE INDEX edges_by_scope ON edges (${scopeKey});

-- Indexed vectors per exact scope (its 64-bit hash) and size: a search reads the partitions of
-- the reader's visible scopes, and their total chooses between exact and coarse-then-exact.
CREATE TABLE vector_scopes (
  scope_key INTEGER NOT NULL,
  dimensions INTEGER NOT NULL,
  vectors INTEGER NOT NULL,
  PRIMARY KEY (scope_key, dimensions)
) STRICT, WITHOUT ROWID;
`,
    apply: partitionVectorsByScope,
  },
  {
    version: 4,
    description: 'full-text index deletes erase terms at once (FTS5 secure-delete)',
    sql: `
-- A delete from the FTS index removes the row's terms from the index's segments at once, instead
-- of adding a tombstone that leaves them on disk until the next merge: forgotten text leaves the
-- index when its episode goes. Needs SQLite 3.42 or later to read the index.
INSERT INTO episodes_fts (episodes_fts, rank) VALUES ('secure-delete', 1);

-- Terms of episodes deleted before this migration still sit in older segments under tombstones:
-- merging every segment into one drops them.
INSERT INTO episodes_fts (episodes_fts) VALUES ('optimize');
`,
  },
  {
    version: 5,
    description: 'facts listed by last confirmation per exact scope, entity type and key',
    sql: `
-- facts.find with order 'confirmed' at one exact scope (a LangGraph store's items): the index gives
-- the rows in order, so a page reads its rows (and the filtered-out ones before them), not the scope.
CREATE INDEX IF NOT EXISTS facts_by_confirmed ON facts (${scopeKey}, entity_type, key, last_confirmed_at DESC, entity_id, id);
`,
  },
  {
    version: 6,
    description: 'threads listed by creation or update time per user',
    sql: `
-- threads.list of one user's threads (every level above the thread pinned) by either time: the
-- index gives the rows in order (read backwards for newest first), so a page reads its own rows.
CREATE INDEX IF NOT EXISTS threads_by_created ON threads (tenant, org_id, user_id, agent_id, created_at, thread_id);
CREATE INDEX IF NOT EXISTS threads_by_updated ON threads (tenant, org_id, user_id, agent_id, updated_at, thread_id);
`,
  },
  {
    version: 7,
    description: 'facts found by entity id per exact scope, whatever their type',
    sql: `
-- Every fact write reads the entity's current facts at its scope, of any type (one name, one
-- identity): the index finds them by scope and entity id, so a write reads a handful of rows, not
-- the scope, before the planner has statistics.
CREATE INDEX IF NOT EXISTS facts_by_entity ON facts (${scopeKey}, entity_id);
`,
  },
  {
    version: 8,
    description: 'sign-bit codes of indexed vectors packed in blocks per partition (fast coarse search)',
    sql: `
-- The sign bits of every vector in the vec0 tables, by vector size and scope hash (the vec0
-- partition), packed in blocks: row ids as float64, codes as 32-bit words (see SignCodes).
CREATE TABLE IF NOT EXISTS vector_code_blocks (
  dimensions INTEGER NOT NULL,
  scope_key INTEGER NOT NULL,
  block INTEGER NOT NULL,
  row_ids BLOB NOT NULL,
  codes BLOB NOT NULL,
  PRIMARY KEY (dimensions, scope_key, block)
) STRICT, WITHOUT ROWID;
`,
    apply: packSignCodes,
  },
  {
    version: 9,
    description: 'byte-quantised copies of indexed vectors (a coarse search reads few float64 embeddings)',
    sql: `
-- Each indexed vector's unit vector rounded to one signed byte per component (codes[i] * scale),
-- with the length of what rounding lost: a coarse search bounds every candidate's cosine from
-- these and reads the float64 embedding only of candidates that may make the answer.
CREATE TABLE IF NOT EXISTS quantised_vectors (
  row_id INTEGER PRIMARY KEY REFERENCES episodes (row_id) ON DELETE CASCADE,
  scale REAL NOT NULL,
  error REAL NOT NULL,
  codes BLOB NOT NULL
) STRICT;
`,
    apply: quantiseVectors,
  },
  {
    version: 10,
    description: 'review items keyed by what they propose',
    // The engine looks a proposal up by its key before queueing it again (review.list with
    // dedupeKey): one index probe, however long the queue. Items stored before have no key.
    sql: '',
    apply: keyReviewItems,
  },
];

/** Migration 10: the review items' `dedupe_key` column (added once, as files re-run migrations) and its index. */
function keyReviewItems(db: DatabaseSync): void {
  const columns = db.prepare('PRAGMA table_info(review_items)').all() as Array<{ name: string }>;
  if (!columns.some((c) => c.name === 'dedupe_key'))
    db.exec('ALTER TABLE review_items ADD COLUMN dedupe_key TEXT');
  db.exec('CREATE INDEX IF NOT EXISTS review_by_dedupe_key ON review_items (tenant, dedupe_key, created_at)');
}

/**
 * Migration 3's data step: each vector table, partitioned by tenant with the scope hash as a
 * filter column, is copied into a table partitioned by the scope hash, and the per-tenant counts
 * give way to per-scope ones. Vectors are copied as stored (no re-quantisation).
 */
function partitionVectorsByScope(db: DatabaseSync): void {
  const tables = db
    .prepare('SELECT dimensions, table_name FROM vector_indexes ORDER BY dimensions')
    .all() as Array<{
    dimensions: number;
    table_name: string;
  }>;
  for (const { dimensions, table_name: old } of tables) {
    if (!Number.isInteger(dimensions) || dimensions < 1 || !/^[a-z0-9_]+$/.test(old)) {
      throw new StrataError({
        code: 'schema_version',
        message: `Unexpected vector table "${old}" in this database.`,
      });
    }
    const table = `scoped_vectors_${dimensions}`;
    const bits = Math.ceil(dimensions / 8) * 8;
    db.exec(
      `CREATE VIRTUAL TABLE ${table} USING vec0(
         scope_key INTEGER PARTITION KEY,
         status TEXT,
         access_level INTEGER,
         occurred_at INTEGER,
         embedding FLOAT[${dimensions}] DISTANCE_METRIC=l2,
         embedding_bits BIT[${bits}],
         chunk_size = 64
       );
       INSERT INTO ${table} (rowid, scope_key, status, access_level, occurred_at, embedding, embedding_bits)
         SELECT rowid, scope_hash, status, access_level, occurred_at, embedding, vec_bit(embedding_bits) FROM ${old};
       INSERT INTO vector_scopes (scope_key, dimensions, vectors)
         SELECT scope_hash, ${dimensions}, count(*) FROM ${old} GROUP BY scope_hash;
       DROP TABLE ${old};`,
    );
    db.prepare('UPDATE vector_indexes SET table_name = ? WHERE dimensions = ?').run(table, dimensions);
  }
  db.exec('DROP TABLE vector_partitions');
}

/**
 * Migration 8's data step: the codes of the vectors already indexed (episodes with a non-zero
 * embedding), from their stored embeddings, in row order (any codes there are rebuilt).
 */
function packSignCodes(db: DatabaseSync): void {
  db.exec('DELETE FROM vector_code_blocks');
  const codes = new SignCodes(new Statements(db));
  const rows = db
    .prepare(
      `SELECT e.row_id, e.tenant, e.org_id, e.user_id, e.agent_id, e.thread_id, x.embedding
         FROM episodes e JOIN episode_embeddings x ON x.row_id = e.row_id
        WHERE e.embedding_norm > 0 ORDER BY e.row_id`,
    )
    .iterate() as Iterable<ScopeRow & { row_id: number; embedding: Uint8Array }>;
  for (const row of rows) {
    const vector = decodeEmbedding(row.embedding);
    if (!isIndexable(euclideanNorm(vector))) continue;
    const scopeKey = scopeHash(scopeValues(scopeOfRow(row)));
    codes.add({ dimensions: vector.length, scopeKey, rowId: row.row_id, vector });
  }
}

/** Migration 9's data step: the quantised copy of every vector already indexed. */
function quantiseVectors(db: DatabaseSync): void {
  const quantised = new QuantisedVectors(new Statements(db));
  const rows = db
    .prepare(
      `SELECT x.row_id, x.embedding FROM episodes e JOIN episode_embeddings x ON x.row_id = e.row_id
        WHERE e.embedding_norm > 0 ORDER BY e.row_id`,
    )
    .iterate() as Iterable<{ row_id: number; embedding: Uint8Array }>;
  for (const row of rows) {
    const vector = decodeEmbedding(row.embedding);
    const norm = euclideanNorm(vector);
    if (isIndexable(norm)) quantised.add(row.row_id, vector, norm);
  }
}

/** The schema version this driver writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

const META_TABLE = 'strata_meta';

/** The schema version stamped in `db`, or 0 for an empty database. */
export function readSchemaVersion(db: DatabaseSync): number {
  const table = db
    .prepare("SELECT 1 AS found FROM sqlite_schema WHERE type = 'table' AND name = ?")
    .get(META_TABLE);
  if (!table) {
    const other = db
      .prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .get() as { n: number };
    if (other.n > 0) {
      throw new StrataError({
        code: 'schema_version',
        message:
          'This SQLite file already holds tables but no Strata schema version: it is not a Strata database. Point the store at another path.',
      });
    }
    return 0;
  }
  const row = db.prepare(`SELECT value FROM ${META_TABLE} WHERE key = 'schema_version'`).get() as
    | { value: string }
    | undefined;
  const version = row ? Number(row.value) : 0;
  if (!Number.isInteger(version) || version < 0) {
    throw new StrataError({
      code: 'schema_version',
      message: `The Strata database holds an unreadable schema version "${row?.value}".`,
    });
  }
  return version;
}

function newerVersionError(found: number, supported: number): StrataError {
  return new StrataError({
    code: 'schema_version',
    message: `This database was written by a newer version of @strata-memory/store-sqlite (schema version ${found}; this version knows up to ${supported}). Upgrade the package to open it.`,
    details: { found, supported },
  });
}

/**
 * Brings `db` up to the last of `migrations`, all pending ones in one `BEGIN IMMEDIATE`
 * transaction (so two processes opening a new file never both migrate it). Idempotent: an
 * up-to-date database is only read, so it opens even while another process is writing. A
 * database stamped with a newer version than `migrations` knows fails with `schema_version` and
 * is not touched.
 */
export function migrate(db: DatabaseSync, migrations: readonly Migration[] = MIGRATIONS): number {
  const target = migrations[migrations.length - 1]?.version ?? 0;
  const seen = readSchemaVersion(db);
  if (seen > target) throw newerVersionError(seen, target);
  if (seen === target) return target;
  db.exec('BEGIN IMMEDIATE');
  try {
    // Read again under the write lock: another process may have migrated meanwhile.
    const current = readSchemaVersion(db);
    if (current > target) throw newerVersionError(current, target);
    for (const migration of migrations) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      migration.apply?.(db);
      db.prepare(
        `INSERT INTO ${META_TABLE} (key, value) VALUES ('schema_version', ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ).run(String(migration.version));
    }
    db.exec('COMMIT');
    return target;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
