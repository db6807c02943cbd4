import { createHash } from 'node:crypto';
import { type Scope, sameScope, scopeKey } from '../scope/scope.ts';
import { cosine } from '../scoring/scoring.ts';
import type { StoreCapabilities, StoreTransaction } from '../store/contract.ts';
import { LIMITS } from '../store/limits.ts';
import { contentHash } from '../store/normalize.ts';
import type { EpisodeRecord, MessageRole, Metadata, Provenance } from '../store/records.ts';
import { LiteralAgreement } from './literal-agreement.ts';

/**
 * Writing episodes without duplicates. An observed message whose normalised text already exists
 * at the same scope and access level (exact duplicate), or whose embedding is at least
 * `duplicateSimilarity` close to one there (near duplicate, via a top-k vector search), is not
 * stored again: the existing episode has its access recorded instead. Duplicates inside one batch
 * are folded the same way. Either way the two must state the same literals (see
 * `literal-agreement.ts`): "lead time is 30 days" is never a duplicate of "lead time is 45 days".
 */

export interface EpisodeDraft {
  id: string;
  messageId: string;
  text: string;
  role: MessageRole;
  speaker?: string;
  occurredAt: number;
  importance: number;
  embedding?: number[];
  accessLevel: number;
  provenance: Provenance;
  metadata: Metadata;
}

export interface EpisodeWriteResult {
  written: EpisodeRecord[];
  /** Drafts not written, each with the id of the episode it duplicates. */
  duplicates: Array<{ draft: EpisodeDraft; episodeId: string; similarity: number }>;
}

/**
 * The episode id for a message observed at a scope: the same message observed again maps to the
 * same id, which is how a retried `observe` is recognised even when the scope has no thread.
 */
export function episodeIdFor(scope: Scope, messageId: string): string {
  const digest = createHash('sha256')
    .update(`${scopeKey(scope)}\n${messageId}`)
    .digest('hex');
  return `ep_${digest.slice(0, 40)}`;
}

/** The closest active episode at exactly `scope` and level, at or above `threshold`, with the same literals. */
async function nearDuplicateAtScope(
  tx: StoreTransaction,
  args: {
    scope: Scope;
    vector: number[];
    accessLevel: number;
    text: string;
    threshold: number;
    literals: LiteralAgreement;
  },
): Promise<{ episode: EpisodeRecord; score: number } | undefined> {
  const found = await tx.episodes.searchVector({
    scope: args.scope,
    vector: args.vector,
    limit: 5,
    status: ['active'],
    minScore: args.threshold,
  });
  const hit = found.find(
    (c) =>
      c.score >= args.threshold &&
      sameScope(c.episode.scope, args.scope) &&
      c.episode.accessLevel === args.accessLevel &&
      args.literals.agree(c.episode.text, args.text),
  );
  return hit ? { episode: hit.episode, score: hit.score } : undefined;
}

export async function writeEpisodes(
  tx: StoreTransaction,
  args: {
    scope: Scope;
    drafts: EpisodeDraft[];
    duplicateSimilarity: number;
    capabilities: StoreCapabilities;
    at: number;
  },
): Promise<EpisodeWriteResult> {
  const { scope, drafts } = args;
  if (drafts.length === 0) return { written: [], duplicates: [] };
  const hashes = drafts.map((d) => contentHash(d.text));
  const stored: EpisodeRecord[] = [];
  const unique = [...new Set(hashes)];
  for (let i = 0; i < unique.length; i += LIMITS.maxBatch) {
    stored.push(
      ...(await tx.episodes.findByHash({ scope, contentHashes: unique.slice(i, i + LIMITS.maxBatch) })),
    );
  }

  const accepted: Array<EpisodeDraft & { contentHash: string; accessCount: number }> = [];
  const literals = new LiteralAgreement();
  const duplicates: EpisodeWriteResult['duplicates'] = [];
  const touched: string[] = [];

  for (const [index, draft] of drafts.entries()) {
    const hash = hashes[index]!;
    const exact = stored.find(
      (e) =>
        e.contentHash === hash &&
        e.accessLevel === draft.accessLevel &&
        sameScope(e.scope, scope) &&
        literals.agree(e.text, draft.text),
    );
    if (exact) {
      duplicates.push({ draft, episodeId: exact.id, similarity: 1 });
      touched.push(exact.id);
      continue;
    }
    const inBatch = accepted.find(
      (a) =>
        a.accessLevel === draft.accessLevel &&
        literals.agree(a.text, draft.text) &&
        (a.contentHash === hash ||
          (a.embedding !== undefined &&
            draft.embedding !== undefined &&
            cosine(a.embedding, draft.embedding) >= args.duplicateSimilarity)),
    );
    if (inBatch) {
      const similarity = inBatch.contentHash === hash ? 1 : cosine(inBatch.embedding!, draft.embedding!);
      duplicates.push({ draft, episodeId: inBatch.id, similarity });
      inBatch.accessCount += 1;
      continue;
    }
    if (draft.embedding && args.capabilities.vectorSearch) {
      const near = await nearDuplicateAtScope(tx, {
        scope,
        vector: draft.embedding,
        accessLevel: draft.accessLevel,
        text: draft.text,
        threshold: args.duplicateSimilarity,
        literals,
      });
      if (near) {
        duplicates.push({ draft, episodeId: near.episode.id, similarity: near.score });
        touched.push(near.episode.id);
        continue;
      }
    }
    accepted.push({ ...draft, contentHash: hash, accessCount: 0 });
  }

  const written: EpisodeRecord[] = [];
  for (let i = 0; i < accepted.length; i += LIMITS.maxBatch) {
    const batch = accepted.slice(i, i + LIMITS.maxBatch).map((a) => ({
      id: a.id,
      scope,
      text: a.text,
      role: a.role,
      ...(a.speaker ? { speaker: a.speaker } : {}),
      occurredAt: a.occurredAt,
      createdAt: args.at,
      importance: a.importance,
      accessCount: a.accessCount,
      ...(a.accessCount > 0 ? { lastAccessedAt: args.at } : {}),
      ...(a.embedding ? { embedding: a.embedding } : {}),
      contentHash: a.contentHash,
      accessLevel: a.accessLevel,
      provenance: a.provenance,
      metadata: a.metadata,
    }));
    written.push(...(await tx.episodes.put({ episodes: batch })));
  }
  // One access per duplicate observation, so repeated mentions count.
  for (const id of touched) await tx.episodes.recordAccess({ scope, ids: [id], at: args.at });
  return { written, duplicates };
}
