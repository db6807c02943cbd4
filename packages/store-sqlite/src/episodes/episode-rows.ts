import type { EpisodeRecord, MessageRole, Metadata, Provenance } from '@strata-memory/core/store';
import { fromJson, setIfPresent } from '../sql/json-columns.ts';
import { type ScopeRow, scopeOfRow } from '../sql/scope-sql.ts';

export interface EpisodeRow extends ScopeRow {
  row_id: number;
  id: string;
  text: string;
  role: MessageRole | null;
  speaker: string | null;
  occurred_at: number;
  created_at: number;
  importance: number;
  access_count: number;
  last_accessed_at: number | null;
  dimensions: number | null;
  embedding_norm: number | null;
  content_hash: string;
  status: EpisodeRecord['status'];
  merged_into: string | null;
  access_level: number;
  provenance: string;
  metadata: string;
}

/** An episode row with its embedding (from `episode_embeddings`), as reads load it. */
export interface LoadedEpisodeRow extends EpisodeRow {
  embedding: Uint8Array | null;
}

/** Every episode column a record needs (the search text is for the index only). */
export const EPISODE_SELECT = `e.row_id, e.id, e.tenant, e.org_id, e.user_id, e.agent_id, e.thread_id, e.text, e.role,
  e.speaker, e.occurred_at, e.created_at, e.importance, e.access_count, e.last_accessed_at, e.dimensions,
  e.embedding_norm, e.content_hash, e.status, e.merged_into, e.access_level, e.provenance, e.metadata,
  x.embedding`;

export const EPISODE_FROM = 'episodes e LEFT JOIN episode_embeddings x ON x.row_id = e.row_id';

/** Embeddings are kept as float64 bytes, so a vector reads back exactly as it was written. */
export function encodeEmbedding(vector: readonly number[]): Uint8Array {
  return new Uint8Array(Float64Array.from(vector).buffer);
}

export function decodeEmbedding(bytes: Uint8Array): Float64Array {
  // Copy into an aligned buffer: the bytes SQLite hands back may start at any offset.
  return new Float64Array(bytes.slice().buffer, 0, bytes.byteLength / 8);
}

export function euclideanNorm(vector: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  return Math.sqrt(sum);
}

export function toEpisode(row: LoadedEpisodeRow): EpisodeRecord {
  const record: EpisodeRecord = {
    id: row.id,
    scope: scopeOfRow(row),
    text: row.text,
    occurredAt: row.occurred_at,
    createdAt: row.created_at,
    importance: row.importance,
    accessCount: row.access_count,
    contentHash: row.content_hash,
    status: row.status,
    accessLevel: row.access_level,
    provenance: fromJson<Provenance>(row.provenance),
    metadata: fromJson<Metadata>(row.metadata),
  };
  setIfPresent(record, 'role', row.role);
  setIfPresent(record, 'speaker', row.speaker);
  setIfPresent(record, 'lastAccessedAt', row.last_accessed_at);
  if (row.embedding !== null) record.embedding = Array.from(decodeEmbedding(row.embedding));
  setIfPresent(record, 'mergedInto', row.merged_into);
  return record;
}
