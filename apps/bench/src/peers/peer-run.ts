import { z } from 'zod/v4';
import { PEER_NAMES } from './peer-memory.ts';

export const PEER_DATASETS = ['locomo', 'perf'] as const;
export type PeerDataset = (typeof PEER_DATASETS)[number];

const latencySchema = z.object({ p50: z.number(), p95: z.number() });

/** What one peer measured on one dataset, in its own process. */
export const peerRunSchema = z.object({
  ok: z.literal(true),
  peer: z.enum(PEER_NAMES),
  dataset: z.enum(PEER_DATASETS),
  /** Package and version. */
  label: z.string(),
  /** Turns or messages stored. */
  items: z.number().int(),
  /** Questions asked (scored ones on LoCoMo). */
  questions: z.number().int(),
  /** LoCoMo only: turn recall of the evidence at k results, `{ "5": 0.5, "10": 0.6 }`. */
  recallAtK: z.record(z.string(), z.number()).optional(),
  /** LoCoMo only: turn recall of what the peer puts in a prompt within the context budget. */
  recallAtBudget: z.number().optional(),
  /** LoCoMo only: mean tokens of that context. */
  meanContextTokens: z.number().optional(),
  ingestPerSec: z.number(),
  /** Ingest with the time spent inside the embedder taken out. */
  ingestNoEmbedPerSec: z.number(),
  /** Per question, the prompt-context search without the time spent embedding. */
  searchMs: latencySchema,
  /** The same searches, embedding included. */
  searchWithEmbedMs: latencySchema,
  peakRssMb: z.number(),
  /** Null for a memory that lives in the process. */
  bytesPerItem: z.number().nullable(),
});
export type PeerRun = z.infer<typeof peerRunSchema>;

/** A peer that could not be run on a dataset, and exactly what failed. */
export const peerFailureSchema = z.object({
  ok: z.literal(false),
  peer: z.enum(PEER_NAMES),
  dataset: z.enum(PEER_DATASETS),
  label: z.string(),
  error: z.string(),
});
export type PeerFailure = z.infer<typeof peerFailureSchema>;

export const peerOutcomeSchema = z.discriminatedUnion('ok', [peerRunSchema, peerFailureSchema]);
export type PeerOutcome = z.infer<typeof peerOutcomeSchema>;

/** Messages a peer's process sends its parent. */
export const workerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), total: z.number().int() }),
  z.object({ type: z.literal('advance') }),
  z.object({ type: z.literal('result'), outcome: peerOutcomeSchema }),
]);
export type WorkerMessage = z.infer<typeof workerMessageSchema>;
