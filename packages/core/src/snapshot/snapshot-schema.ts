import { z } from 'zod/v4';
import { idSchema, scopeSchema } from '../scope/scope.ts';
import type { ForgetCounts } from '../store/contract.ts';
import { LIMITS } from '../store/limits.ts';
import {
  jsonValueSchema,
  metadataSchema,
  provenanceSchema,
  roleSchema,
  storedFactSchema,
  timestampSchema,
} from '../store/schemas.ts';

/** What a snapshot's `format` says: a file of another kind is refused before anything is read. */
export const SNAPSHOT_FORMAT = 'strata-memory';
/** The snapshot layout this engine writes and reads. */
export const SNAPSHOT_VERSION = 1;

const unit = z.number().min(0).max(1);
const level = z.number().int().min(0).max(1_000_000);
const label = z.string().min(1).max(LIMITS.maxNameChars);

/**
 * An embedding as base64 of little-endian floats: `float32` when every value is exactly a 32-bit
 * float (what embedders produce, what SQLite keeps), else `float64`, so nothing is rounded.
 */
export const encodedVectorSchema = z.union([
  z.object({ float32: z.base64() }).strict(),
  z.object({ float64: z.base64() }).strict(),
]);
/** An embedding in a snapshot. */
export type EncodedVector = z.infer<typeof encodedVectorSchema>;

const messageSchema = z
  .object({
    id: idSchema,
    seq: z.number().int().min(1),
    role: roleSchema,
    content: z.string().max(LIMITS.maxTextChars),
    name: label.optional(),
    toolCalls: z.array(z.object({ id: idSchema, name: label, input: jsonValueSchema }).strict()).optional(),
    toolCallId: idSchema.optional(),
    createdAt: timestampSchema,
    metadata: metadataSchema,
  })
  .strict();

const threadSchema = z
  .object({
    title: label.optional(),
    metadata: metadataSchema,
    summary: z.string().max(LIMITS.maxTextChars).optional(),
    summarizedThroughSeq: z.number().int().nonnegative().optional(),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
    messages: z.array(messageSchema),
  })
  .strict();

const episodeSchema = z
  .object({
    id: idSchema,
    text: z.string().min(1).max(LIMITS.maxTextChars),
    role: roleSchema.optional(),
    speaker: label.optional(),
    occurredAt: timestampSchema,
    createdAt: timestampSchema,
    importance: unit,
    accessCount: z.number().int().nonnegative(),
    lastAccessedAt: timestampSchema.optional(),
    embedding: encodedVectorSchema.optional(),
    contentHash: z.string().min(1).max(128),
    status: z.enum(['active', 'merged', 'archived']),
    mergedInto: idSchema.optional(),
    accessLevel: level,
    provenance: provenanceSchema,
    metadata: metadataSchema,
  })
  .strict();

const factSchema = storedFactSchema.omit({ scope: true });

const nodeSchema = z
  .object({
    id: idSchema,
    type: label,
    name: label,
    aliases: z.array(label),
    properties: metadataSchema,
    status: z.enum(['active', 'superseded']),
    accessLevel: level,
    provenance: provenanceSchema,
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
  })
  .strict();

const edgeSchema = z
  .object({
    id: idSchema,
    from: idSchema,
    to: idSchema,
    relation: label,
    properties: metadataSchema,
    confidence: unit,
    status: z.enum(['active', 'superseded']),
    validFrom: timestampSchema,
    validTo: timestampSchema.optional(),
    accessLevel: level,
    provenance: provenanceSchema,
    createdAt: timestampSchema,
  })
  .strict();

const stateSchema = z
  .object({
    key: label,
    value: jsonValueSchema,
    version: z.number().int().min(1),
    updatedAt: timestampSchema,
  })
  .strict();

const MAX_LEASE_MS = 30 * 24 * 3_600_000;

const ledgerSchema = z
  .object({
    key: label,
    status: z.enum(['claimed', 'done']),
    owner: idSchema,
    claimedAt: timestampSchema,
    leaseUntil: timestampSchema,
    completedAt: timestampSchema.optional(),
    result: jsonValueSchema.optional(),
  })
  .strict()
  .refine((e) => e.leaseUntil - e.claimedAt >= 1 && e.leaseUntil - e.claimedAt <= MAX_LEASE_MS, {
    message: 'leaseUntil must be 1 ms to 30 days after claimedAt',
  })
  .refine((e) => e.status === 'claimed' || e.completedAt !== undefined, {
    message: 'a done entry needs completedAt',
  });

const reviewSchema = z
  .object({
    id: idSchema,
    kind: z.enum(['fact', 'edge']),
    reason: z.enum(['low_confidence', 'hypothetical', 'conflict', 'manual']),
    proposal: metadataSchema,
    confidence: unit,
    status: z.enum(['pending', 'approved', 'rejected']),
    accessLevel: level,
    provenance: provenanceSchema,
    createdAt: timestampSchema,
    decidedAt: timestampSchema.optional(),
    decidedBy: idSchema.optional(),
    note: z.string().max(10_000).optional(),
  })
  .strict()
  .refine((r) => r.status === 'pending' || (r.decidedAt !== undefined && r.decidedBy !== undefined), {
    message: 'a decided review item needs decidedAt and decidedBy',
  });

const auditSchema = z
  .object({
    id: idSchema,
    at: timestampSchema,
    action: z.string().min(1).max(128),
    actor: idSchema,
    subjectType: label.optional(),
    subjectId: idSchema.optional(),
    details: metadataSchema,
  })
  .strict();

/** Everything stored at exactly one scope. Records leave out `scope`: it is the section's. */
export const scopeSnapshotSchema = z
  .object({
    scope: scopeSchema,
    thread: threadSchema.optional(),
    episodes: z.array(episodeSchema),
    facts: z.array(factSchema),
    nodes: z.array(nodeSchema),
    edges: z.array(edgeSchema),
    state: z.array(stateSchema),
    ledger: z.array(ledgerSchema),
    review: z.array(reviewSchema),
    audit: z.array(auditSchema),
  })
  .strict()
  .refine((s) => s.thread === undefined || s.scope.threadId !== undefined, {
    message: 'only a scope with a threadId holds a thread',
    path: ['thread'],
  });

/** The whole snapshot: checked by `memory.import` before anything is written. */
export const memorySnapshotSchema = z
  .object({
    format: z.literal(SNAPSHOT_FORMAT),
    version: z.literal(SNAPSHOT_VERSION),
    /** The subtree that was exported; absent for a whole store. */
    root: scopeSchema.optional(),
    scopes: z.array(scopeSnapshotSchema),
  })
  .strict();

/** A lossless, JSON-serialisable copy of memory: what `memory.export()` returns and `memory.import()` reads. */
export type MemorySnapshot = z.infer<typeof memorySnapshotSchema>;
/** Everything stored at exactly one scope of a snapshot. */
export type ScopeSnapshot = z.infer<typeof scopeSnapshotSchema>;

/** How many records of each kind a snapshot holds (or an import wrote): the layers `forget` counts, and the scopes. */
export interface SnapshotCounts extends ForgetCounts {
  scopes: number;
}

/** Counts the records of a snapshot. */
export function countSnapshot(snapshot: MemorySnapshot): SnapshotCounts {
  const counts: SnapshotCounts = {
    scopes: snapshot.scopes.length,
    threads: 0,
    messages: 0,
    episodes: 0,
    facts: 0,
    nodes: 0,
    edges: 0,
    state: 0,
    ledger: 0,
    review: 0,
    audit: 0,
  };
  for (const s of snapshot.scopes) {
    if (s.thread) {
      counts.threads += 1;
      counts.messages += s.thread.messages.length;
    }
    counts.episodes += s.episodes.length;
    counts.facts += s.facts.length;
    counts.nodes += s.nodes.length;
    counts.edges += s.edges.length;
    counts.state += s.state.length;
    counts.ledger += s.ledger.length;
    counts.review += s.review.length;
    counts.audit += s.audit.length;
  }
  return counts;
}
