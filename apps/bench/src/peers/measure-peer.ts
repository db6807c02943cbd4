import { allTurns, type Conversation } from '../locomo/dataset.ts';
import { evidenceSize, parseEvidence } from '../locomo/evidence.ts';
import { ADVERSARIAL_CATEGORY, QUESTION_DELAY_MS } from '../locomo/run-locomo.ts';
import { Mean, MeanTable, recallAtKs, turnRecall, turnsOfFirst } from '../locomo/scoring.ts';
import { corpus, corpusQuestion } from '../perf/corpus.ts';
import { seededRandom } from '../perf/random.ts';
import { latencySummary } from '../stats/percentile.ts';
import { CONTEXT_TOP_K } from './hit-context.ts';
import type { PeerContext, PeerMemory, PeerSearchArgs, PeerTurn } from './peer-memory.ts';
import type { PeerRun } from './peer-run.ts';
import type { TimedEmbedder } from './timed-embedder.ts';

/** Recall@k is scored at these k. */
export const PEER_KS = [5, 10] as const;
/** Tokens of prompt context that "recall within a budget" allows. */
export const CONTEXT_BUDGET_TOKENS = 1_000;
/** Users of the perf corpus (ten per organisation), as in `bench perf`. */
export const PERF_USERS = 100;
/** Messages per thread of the perf corpus. */
const PERF_THREAD_LENGTH = 20;

/** Where a measurement reports how far it is. */
export interface MeasureHooks {
  start(total: number): void;
  advance(): void;
}

type Measured = Omit<PeerRun, 'ok' | 'peer' | 'dataset' | 'label' | 'peakRssMb'>;

async function ingest(args: {
  peer: PeerMemory;
  embedder: TimedEmbedder;
  turns: readonly PeerTurn[];
  hooks: MeasureHooks;
}): Promise<{ ingestPerSec: number; ingestNoEmbedPerSec: number }> {
  const { peer, embedder, turns, hooks } = args;
  let totalMs = 0;
  let embedMs = 0;
  embedder.take();
  for (const turn of turns) {
    const start = performance.now();
    await peer.add(turn);
    totalMs += performance.now() - start;
    embedMs += embedder.take();
    hooks.advance();
  }
  return {
    ingestPerSec: turns.length / (totalMs / 1000),
    ingestNoEmbedPerSec: turns.length / ((totalMs - embedMs) / 1000),
  };
}

/** Latencies of prompt-context searches, with and without the time spent embedding. */
class SearchTimes {
  readonly withEmbed: number[] = [];
  readonly withoutEmbed: number[] = [];

  async time(peer: PeerMemory, embedder: TimedEmbedder, args: PeerSearchArgs): Promise<PeerContext> {
    embedder.take();
    const start = performance.now();
    const context = await peer.context({ ...args, budget: CONTEXT_BUDGET_TOKENS });
    const elapsed = performance.now() - start;
    this.withEmbed.push(elapsed);
    this.withoutEmbed.push(elapsed - embedder.take());
    return context;
  }

  summary(): Pick<Measured, 'searchMs' | 'searchWithEmbedMs'> {
    return { searchMs: latencySummary(this.withoutEmbed), searchWithEmbedMs: latencySummary(this.withEmbed) };
  }
}

async function bytesPerItem(peer: PeerMemory, items: number): Promise<number | null> {
  const bytes = await peer.diskBytes();
  return bytes === undefined || items === 0 ? null : bytes / items;
}

/** A LoCoMo turn as the peers get it: ids prefixed with the conversation, which owns the memory. */
export function locomoTurns(conversation: Conversation): PeerTurn[] {
  return allTurns(conversation).map((turn) => ({
    id: `${conversation.id}/${turn.id}`,
    userId: conversation.id,
    threadId: `session-${turn.session}`,
    speaker: turn.speaker,
    content: turn.content,
    at: turn.at,
  }));
}

/**
 * LoCoMo on one peer: every turn of every conversation added in order (one call per turn, one
 * memory for all conversations, each conversation its own user); then, per conversation, each
 * scored question (categories 1-4 with evidence) asked from a new session: first the prompt context
 * within the budget (timed), then the top k for recall@k.
 */
export async function measureLocomo(args: {
  peer: PeerMemory;
  embedder: TimedEmbedder;
  conversations: readonly Conversation[];
  hooks: MeasureHooks;
}): Promise<Measured> {
  const { peer, embedder, conversations, hooks } = args;
  const turns = conversations.flatMap(locomoTurns);
  const asked = conversations.flatMap((c) => c.questions.filter((q) => q.category !== ADVERSARIAL_CATEGORY));
  hooks.start(turns.length + asked.length);
  const ingested = await ingest({ peer, embedder, turns, hooks });
  const bytes = await bytesPerItem(peer, turns.length);

  const atK = new MeanTable();
  const atBudget = new Mean();
  const contextTokens = new Mean();
  const times = new SearchTimes();
  const maxK = PEER_KS.at(-1)!;
  for (const conversation of conversations) {
    const known = new Set(allTurns(conversation).map((turn) => turn.id));
    const prefix = `${conversation.id}/`;
    const local = (ids: readonly string[]) =>
      ids.filter((id) => id.startsWith(prefix)).map((id) => id.slice(prefix.length));
    const last = conversation.sessions.at(-1)!;
    await peer.beforeQuestions?.({ userId: conversation.id, at: last.turns.at(-1)!.at + QUESTION_DELAY_MS });
    const where = { userId: conversation.id, threadId: `session-${last.index + 1}` };
    for (const question of conversation.questions) {
      if (question.category === ADVERSARIAL_CATEGORY) continue;
      hooks.advance();
      const evidence = parseEvidence(question.evidence, known);
      if (evidenceSize(evidence) === 0) continue;
      const query = { ...where, query: question.question };
      const context = await times.time(peer, embedder, query);
      atBudget.add(turnRecall(evidence, new Set(local(context.turnIds))));
      contextTokens.add(context.tokens);
      // A context made of one top-10 search already holds the top 10: no second search for it.
      const topHits = async (k: number) =>
        context.hits && k === CONTEXT_TOP_K ? context.hits : await peer.search({ ...query, k });
      if (peer.rankedResults) {
        const ranked = (await topHits(maxK)).map((hit) => local(hit.turnIds));
        for (const [k, recall] of recallAtKs(evidence, ranked, PEER_KS)) atK.add(k, recall);
      } else {
        for (const k of PEER_KS) {
          const found = (await topHits(k)).map((hit) => local(hit.turnIds));
          atK.add(k, turnRecall(evidence, turnsOfFirst(found, k)));
        }
      }
    }
  }
  return {
    items: turns.length,
    questions: atBudget.count,
    recallAtK: atK.toRecord(),
    recallAtBudget: atBudget.value,
    meanContextTokens: contextTokens.value,
    ...ingested,
    ...times.summary(),
    bytesPerItem: bytes,
  };
}

/**
 * The perf corpus on one peer: `items` synthetic business-chat messages of 100 users added one call
 * each, then `queries` questions of random users, each the prompt-context search (timed).
 */
export async function measurePerf(args: {
  peer: PeerMemory;
  embedder: TimedEmbedder;
  items: number;
  queries: number;
  seed: number;
  hooks: MeasureHooks;
}): Promise<Measured> {
  const { peer, embedder, hooks } = args;
  const turns: PeerTurn[] = [];
  let index = 0;
  for (const message of corpus({
    items: args.items,
    users: PERF_USERS,
    threadLength: PERF_THREAD_LENGTH,
    seed: args.seed,
  })) {
    turns.push({
      id: `m${index++}`,
      userId: message.scope.userId!,
      threadId: message.scope.threadId!,
      speaker: message.speaker,
      content: message.content,
      at: message.at,
    });
  }
  hooks.start(turns.length + args.queries);
  const ingested = await ingest({ peer, embedder, turns, hooks });
  const bytes = await bytesPerItem(peer, turns.length);
  const lastAt = Math.max(...turns.map((turn) => turn.at));
  await peer.beforeQuestions?.({ userId: '', at: lastAt + QUESTION_DELAY_MS });
  const random = seededRandom(args.seed + 1);
  const times = new SearchTimes();
  for (let i = 0; i < args.queries; i++) {
    const { scope, query } = corpusQuestion(random, PERF_USERS);
    await times.time(peer, embedder, { userId: scope.userId!, threadId: scope.threadId!, query });
    hooks.advance();
  }
  return {
    items: turns.length,
    questions: args.queries,
    ...ingested,
    ...times.summary(),
    bytesPerItem: bytes,
  };
}
