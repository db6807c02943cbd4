import { abortable, abortedError, throwIfAborted } from '../abort/abort-signal.ts';
import { AuditTrail } from '../engine/audit-log.ts';
import { documentEmbedder } from '../engine/document-embedder.ts';
import {
  actorOf,
  type Engine,
  longTermScopeOf,
  readLevel,
  retryOnConflict,
  writeLevel,
} from '../engine/engine.ts';
import { observeBatchSchema, observeOptionsSchema } from '../engine/input-schemas.ts';
import { MESSAGE_ACCESS_KEY } from '../engine/metadata-keys.ts';
import type { ObserveInput, ObserveOptions, ObserveResult, Principal } from '../engine/types.ts';
import { embedInBatches } from '../episodic/embed-batches.ts';
import { type EpisodeDraft, episodeIdFor, writeEpisodes } from '../episodic/episode-writer.ts';
import { estimateImportance } from '../episodic/importance.ts';
import type { StrataError } from '../errors/strata-error.ts';
import { parseScope, type Scope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import { parseArgs } from '../store/define-store.ts';
import { createId } from '../store/normalize.ts';
import type { MessageRecord, MessageRole, Metadata, ToolCallRecord } from '../store/records.ts';
import { withTransaction } from '../store/with-transaction.ts';
import { toEpochMs } from '../validation/epoch-time.ts';
import { type AppliedExtraction, applyExtraction, type ObservedMessage } from './apply-extraction.ts';
import { type ExtractionRun, runExtraction } from './run-extraction.ts';

/**
 * `observe`: one call records a turn in every layer.
 *
 * 1. Validate everything first (bad input stores nothing).
 * 2. Drop messages already observed (same id in the thread, or same episode id): retries are no-ops.
 * 3. Outside any transaction, do the slow parts: embed the texts (in batches of
 *    `embedder.maxBatchSize`; a failure leaves episodes without vectors) and run the extractor
 *    once for the whole turn (a failure is recorded, not thrown).
 * 4. In one store transaction: append to the thread's working buffer, write episodes (skipping
 *    exact and near duplicates), apply the extraction, and write the audit trail.
 */

interface Prepared {
  id: string;
  role: MessageRole;
  content: string;
  name?: string;
  at: number;
  toolCalls?: ToolCallRecord[];
  toolCallId?: string;
  metadata: Metadata;
  importance: number;
  accessLevel: number;
  episodeId: string;
}

function prepare(engine: Engine, scope: Scope, inputs: ObserveInput[], now: number): Prepared[] {
  const seen = new Set<string>();
  const out: Prepared[] = [];
  for (const [index, input] of inputs.entries()) {
    const id = input.id ?? createId('msg');
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({
      id,
      role: input.role,
      content: input.content,
      ...(input.name ? { name: input.name } : {}),
      at: input.at === undefined ? now : toEpochMs(input.at, `messages[${index}].at`),
      ...(input.toolCalls ? { toolCalls: input.toolCalls } : {}),
      ...(input.toolCallId ? { toolCallId: input.toolCallId } : {}),
      metadata: input.metadata ?? {},
      importance: input.importance ?? estimateImportance(input.content),
      accessLevel: writeLevel(engine, input.access),
      episodeId: episodeIdFor(scope, id),
    });
  }
  return out;
}

/** Who said it, for provenance: the principal, else the scope's user (user turns) or agent (assistant turns). */
function principalIdOf(
  message: Prepared,
  scope: Scope,
  principal: Principal | undefined,
): string | undefined {
  if (principal) return principal.id;
  if (message.role === 'user') return scope.userId;
  if (message.role === 'assistant') return scope.agentId;
  return undefined;
}

/** Messages of `prepared` not observed before. */
async function unseen(
  store: Pick<StoreTransaction, 'threads' | 'episodes'>,
  scope: Scope,
  target: Scope,
  prepared: Prepared[],
): Promise<Prepared[]> {
  if (prepared.length === 0) return prepared;
  const known = new Set<string>();
  if (scope.threadId !== undefined) {
    const stored = await store.threads.getMessages({ scope, ids: prepared.map((p) => p.id) });
    for (const m of stored) known.add(m.id);
  }
  const episodes = await store.episodes.get({ scope: target, ids: prepared.map((p) => p.episodeId) });
  const episodeIds = new Set(episodes.map((e) => e.id));
  for (const p of prepared) if (episodeIds.has(p.episodeId)) known.add(p.id);
  return prepared.filter((p) => !known.has(p.id));
}

async function embedDrafts(
  engine: Engine,
  fresh: Prepared[],
  signal: AbortSignal | undefined,
): Promise<{ vectors: Map<string, number[]>; error?: StrataError }> {
  const vectors = new Map<string, number[]>();
  const embedder = engine.embedder;
  const withText = fresh.filter((p) => p.content.trim().length > 0);
  if (!embedder || withText.length === 0) return { vectors };
  try {
    const embedded = await abortable(
      embedInBatches({
        embedder: documentEmbedder(embedder),
        texts: withText.map((p) => p.content),
        ...(signal ? { signal } : {}),
      }),
      signal,
      'observe',
    );
    for (const [i, p] of withText.entries()) vectors.set(p.id, embedded[i]!);
    return { vectors };
  } catch (error) {
    // A cancelled call stops here; any other embedder failure leaves episodes without vectors.
    if (signal?.aborted) throw abortedError(signal, 'observe');
    return { vectors, error: error as StrataError };
  }
}

const emptyApplied = (): AppliedExtraction => ({
  written: [],
  superseded: [],
  confirmed: [],
  review: [],
  nodes: [],
  edges: [],
  unresolved: 0,
});

export async function observe(
  engine: Engine,
  scopeInput: Scope,
  input: ObserveInput | ObserveInput[],
  optionsInput?: ObserveOptions,
): Promise<ObserveResult> {
  const scope = parseScope(scopeInput);
  const inputs = parseArgs(observeBatchSchema, Array.isArray(input) ? input : [input], 'observe: messages');
  const options = parseArgs(observeOptionsSchema, optionsInput, 'observe: options') ?? {};
  const signal = options.signal;
  throwIfAborted(signal, 'observe');
  const principal = options.principal;
  const readerLevel = readLevel(engine, principal);
  const { store, clock, policy } = engine;
  const now = clock.now();
  const target = longTermScopeOf(scope, policy);
  const prepared = prepare(engine, scope, inputs as ObserveInput[], now);
  const extractorId = engine.extractor.id;

  const fresh = await abortable(unseen(store, scope, target, prepared), signal, 'observe');
  if (fresh.length === 0) {
    return {
      messages: [],
      episodes: [],
      duplicates: 0,
      folded: [],
      facts: { written: [], superseded: [], confirmed: [] },
      review: [],
      nodes: [],
      edges: [],
      extraction: { extractor: extractorId, ok: true },
    };
  }

  const { vectors, error: embedError } = await embedDrafts(engine, fresh, signal);
  const run: ExtractionRun =
    options.extract === false
      ? { extraction: { facts: [], entities: [], relations: [] } }
      : await abortable(
          runExtraction(engine, { scope, target, fresh, ...(signal ? { signal } : {}) }),
          signal,
          'observe',
        );
  // An extractor that failed because the call was cancelled is not a failure to record.
  throwIfAborted(signal, 'observe');

  const write = () =>
    withTransaction(store, async (tx) => {
      // Between the writes the signal is checked, not raced: a cancelled call throws here, the
      // transaction rolls back, and nothing of the turn is stored.
      const checkpoint = () => throwIfAborted(signal, 'observe');
      checkpoint();
      const audit = new AuditTrail({ actor: actorOf(principal), at: now });
      // Re-check inside the transaction: a concurrent observe of the same message may have won.
      const todo = await unseen(tx, scope, target, fresh);
      if (todo.length === 0)
        return { messages: [], episodes: { written: [], duplicates: [] }, applied: emptyApplied() };
      let messages: MessageRecord[] = [];
      if (scope.threadId !== undefined) {
        messages = await tx.threads.appendMessages({
          scope,
          messages: todo.map((p) => ({
            id: p.id,
            role: p.role,
            content: p.content,
            ...(p.name ? { name: p.name } : {}),
            ...(p.toolCalls ? { toolCalls: p.toolCalls } : {}),
            ...(p.toolCallId ? { toolCallId: p.toolCallId } : {}),
            createdAt: p.at,
            metadata: p.accessLevel > 0 ? { ...p.metadata, [MESSAGE_ACCESS_KEY]: p.accessLevel } : p.metadata,
          })),
        });
      }
      checkpoint();
      const drafts: EpisodeDraft[] = todo
        .filter((p) => p.content.trim().length > 0)
        .map((p) => {
          const principalId = principalIdOf(p, scope, principal);
          const embedding = vectors.get(p.id);
          return {
            id: p.episodeId,
            messageId: p.id,
            text: p.content,
            role: p.role,
            ...(p.name ? { speaker: p.name } : {}),
            occurredAt: p.at,
            importance: p.importance,
            ...(embedding ? { embedding } : {}),
            accessLevel: p.accessLevel,
            provenance: {
              source: 'observation',
              messageId: p.id,
              ...(scope.threadId ? { threadId: scope.threadId } : {}),
              ...(principalId ? { principalId } : {}),
              at: now,
            },
            metadata: p.metadata,
          };
        });
      const episodes = await writeEpisodes(tx, {
        scope: target,
        drafts,
        duplicateSimilarity: policy.duplicateSimilarity,
        capabilities: store.capabilities,
        at: now,
      });

      checkpoint();
      if (embedError) {
        audit.add({
          scope: target,
          action: 'embed.failed',
          details: {
            embedder: engine.embedder?.id ?? 'none',
            error: embedError.message,
            episodes: episodes.written.length,
          },
        });
      }
      let applied = emptyApplied();
      if (run.failure) {
        audit.add({
          scope: target,
          action: 'extract.failed',
          details: {
            extractor: extractorId,
            error: run.failure.error,
            ...(run.failure.code ? { code: run.failure.code } : {}),
            ...(run.failure.raw !== undefined ? { raw: run.failure.raw } : {}),
            messageIds: todo.map((p) => p.id),
          },
        });
      } else if (run.extraction) {
        const duplicateOf = new Map(episodes.duplicates.map((d) => [d.draft.messageId, d.episodeId]));
        const observed = new Map<string, ObservedMessage>();
        for (const p of todo) {
          const episodeId = duplicateOf.get(p.id) ?? (p.content.trim().length > 0 ? p.episodeId : undefined);
          const principalId = principalIdOf(p, scope, principal);
          observed.set(p.id, {
            messageId: p.id,
            ...(episodeId ? { episodeId } : {}),
            ...(principalId ? { principalId } : {}),
            accessLevel: p.accessLevel,
            ...(p.name ? { name: p.name } : {}),
          });
        }
        const todoIds = new Set(todo.map((p) => p.id));
        const freshIds = new Set(fresh.map((p) => p.id));
        // Items from messages a concurrent observe already recorded are that call's to apply.
        const mine = <T extends { messageId: string }>(items: T[]) =>
          items.filter((i) => todoIds.has(i.messageId) || !freshIds.has(i.messageId));
        const { facts, entities, relations } = run.extraction;
        applied = await applyExtraction(tx, engine, {
          scope,
          target,
          extraction: { facts: mine(facts), entities: mine(entities), relations: mine(relations) },
          messages: observed,
          fallbackMessageId: todo[todo.length - 1]!.id,
          at: now,
          audit,
          readerLevel,
        });
      }

      checkpoint();
      audit.add({
        scope: target,
        action: 'observe',
        ...(scope.threadId ? { subjectType: 'thread', subjectId: scope.threadId } : {}),
        details: {
          messages: todo.length,
          episodes: episodes.written.length,
          duplicates: episodes.duplicates.length,
          factsWritten: applied.written.length,
          factsSuperseded: applied.superseded.length,
          factsConfirmed: applied.confirmed.length,
          review: applied.review.length,
          nodes: applied.nodes.length,
          edges: applied.edges.length,
          unresolved: applied.unresolved,
          extractor: extractorId,
        },
      });
      await audit.flush(tx);
      return { messages, episodes, applied };
    });

  const { messages, episodes, applied } = await retryOnConflict(write);
  return {
    messages,
    episodes: episodes.written,
    duplicates: episodes.duplicates.length,
    folded: episodes.duplicates.map((d) => ({
      messageId: d.draft.messageId,
      episodeId: d.episodeId,
      similarity: d.similarity,
    })),
    facts: { written: applied.written, superseded: applied.superseded, confirmed: applied.confirmed },
    review: applied.review,
    nodes: applied.nodes,
    edges: applied.edges,
    extraction: run.failure
      ? { extractor: extractorId, ok: false, error: run.failure.error }
      : { extractor: extractorId, ok: true },
  };
}
