import {
  createMemory,
  defaultTokenizer,
  type Embedder,
  extractiveSummarizer,
  type Memory,
  type Scope,
  type Store,
  type Tokenizer,
} from '@strata-memory/core';
import { createRecall, type RecallTuning } from '@strata-memory/core/internals';
import type { Progress } from '../cli/progress.ts';
import { accessSwitch } from '../setup/access-switch.ts';
import { benchClock } from '../setup/bench-clock.ts';
import type { EmbedderKind } from '../setup/embedders.ts';
import { createEmbedder } from '../setup/embedders.ts';
import { openBenchStore, type StoreKind } from '../setup/stores.ts';
import { allTurns, type Conversation, loadConversations, selectConversations } from './dataset.ts';
import { evidenceSize, parseEvidence } from './evidence.ts';
import { type IngestPath, probeIngest } from './ingest-probe.ts';
import { QuestionLog, type QuestionRecord, strategyRecord } from './question-log.ts';
import { fullContextStrategy } from './strategies/full-context.ts';
import { keywordStrategy } from './strategies/keyword.ts';
import { memoizedTokenizer } from './strategies/memoized-tokenizer.ts';
import { recentStrategy } from './strategies/recent.ts';
import { strataStrategy } from './strategies/strata.ts';
import { askedQuestion, type RetrievalPlan, type Strategy, type StrategyName } from './strategies/types.ts';
import { vectorStrategy } from './strategies/vector.ts';
import { type StrategySummary, StrategyTally } from './strategy-tally.ts';

/** The adversarial category: its questions have no answer in the conversation and are not scored. */
export const ADVERSARIAL_CATEGORY = 5;

/** The question is asked this long after the last turn of the conversation. */
export const QUESTION_DELAY_MS = 60_000;

/** Budget of the ranking recall behind strata's recall@k: large enough never to bind. */
export const RANKING_BUDGET_TOKENS = 100_000;

export interface LocomoOptions {
  /** A folder of `conv-*.json` files, or the LoCoMo repository's `locomo10.json`. */
  data: string;
  /** Only these conversations (ids such as `conv-26`), in the data's order; all when absent. */
  conversations?: string[];
  store: StoreKind;
  embedder: EmbedderKind;
  /** Ascending, distinct. */
  ks: number[];
  /** Ascending, distinct. */
  budgets: number[];
  strategies: StrategyName[];
  /** JSONL file for per-question records. */
  out?: string;
  /** Recall stages switched off or re-weighted (`--ablate`); the defaults otherwise. */
  tuning?: Partial<RecallTuning>;
}

export interface LocomoReport {
  benchmark: 'locomo';
  conversations: number;
  /** Scored questions: non-adversarial, with at least one evidence id. */
  questions: number;
  store: StoreKind;
  embedder: EmbedderKind;
  strategies: Partial<Record<StrategyName, StrategySummary>>;
}

export interface LocomoNotes {
  /** Non-adversarial questions skipped because their evidence list is empty. */
  questionsWithoutEvidence: number;
  /** Per strategy: contexts that came back over their budget (scored 0). */
  overBudget: Partial<Record<StrategyName, number>>;
  /** Strategies dropped because the run cannot support them. */
  dropped: Array<{ strategy: StrategyName; reason: string }>;
}

/** Which ingest path each baseline's `observePerSec` measures. */
const INGEST_PATH: Record<Exclude<StrategyName, 'strata'>, IngestPath> = {
  bm25: 'episodes',
  vector: 'embedded-episodes',
  recent: 'messages',
  'full-context': 'messages',
};

function sessionScope(conversation: Conversation, session: number): Scope {
  return { userId: conversation.id, threadId: `session-${session}` };
}

async function observeConversation(args: {
  memory: Memory;
  clock: ReturnType<typeof benchClock>;
  conversation: Conversation;
  progress: Progress;
}): Promise<{ turns: number; elapsedMs: number }> {
  const { memory, clock, conversation, progress } = args;
  let turns = 0;
  let elapsedMs = 0;
  for (const session of conversation.sessions) {
    const scope = sessionScope(conversation, session.index);
    for (const turn of session.turns) {
      clock.set(turn.at);
      const start = performance.now();
      await memory.observe(scope, {
        id: turn.id,
        role: 'user',
        name: turn.speaker,
        content: turn.content,
        at: turn.at,
      });
      elapsedMs += performance.now() - start;
      turns += 1;
      progress.advance();
    }
  }
  return { turns, elapsedMs };
}

function buildStrategies(args: {
  names: readonly StrategyName[];
  memory: Memory;
  store: Store;
  embedder: Embedder | undefined;
  tokenizer: Tokenizer;
  conversation: Conversation;
  plan: RetrievalPlan;
  questionScope: Scope;
}): Strategy[] {
  const { memory, store, plan, conversation } = args;
  // Baselines count the same turn lines for every question: the same tokenizer, counted once per text.
  const tokenizer = memoizedTokenizer(args.tokenizer);
  const knownTurns = new Set(allTurns(conversation).map((turn) => turn.id));
  const conversationScope: Scope = { userId: conversation.id };
  const scope = args.questionScope;
  const build: Record<StrategyName, () => Strategy> = {
    strata: () =>
      strataStrategy({ memory, scope, plan, knownTurns, rankingBudgetTokens: RANKING_BUDGET_TOKENS }),
    bm25: () => keywordStrategy({ store, scope, tokenizer, plan, knownTurns }),
    vector: () => {
      if (!args.embedder) throw new RangeError('the vector strategy needs an embedder');
      return vectorStrategy({ store, embedder: args.embedder, scope, tokenizer, plan, knownTurns });
    },
    recent: () => recentStrategy({ store, conversationScope, tokenizer, plan, knownTurns }),
    'full-context': () => fullContextStrategy({ store, conversationScope, tokenizer }),
  };
  return args.names.map((name) => build[name]());
}

/**
 * The LoCoMo retrieval benchmark. Per conversation: a fresh store and memory; every turn observed
 * in order, one call per turn, at its session's date (plus a small per-turn offset), in one thread
 * per session; then every scored question is put to every strategy, from a new session's thread
 * at a clock just after the last turn.
 */
export async function runLocomo(
  options: LocomoOptions,
  hooks: { progress: Progress },
): Promise<{ report: LocomoReport; notes: LocomoNotes }> {
  const conversations = selectConversations(await loadConversations(options.data), options.conversations);
  const tokenizer = defaultTokenizer();
  const embedder = await createEmbedder(options.embedder);
  const plan: RetrievalPlan = { ks: options.ks, budgets: options.budgets };
  const tuning: Partial<RecallTuning> = options.tuning ?? {};
  const notes: LocomoNotes = { questionsWithoutEvidence: 0, overBudget: {}, dropped: [] };

  const names = options.strategies.filter((name) => {
    if (name === 'vector' && !embedder) {
      notes.dropped.push({ strategy: name, reason: 'no embedder (--embedder none)' });
      return false;
    }
    return true;
  });
  const tallies = new Map(
    names.map((name) => [name, new StrategyTally({ name, scored: name !== 'full-context', plan })]),
  );
  const log = options.out ? await QuestionLog.open(options.out) : undefined;

  const total = conversations.reduce(
    (sum, c) =>
      sum + allTurns(c).length + c.questions.filter((q) => q.category !== ADVERSARIAL_CATEGORY).length,
    0,
  );
  hooks.progress.start(total, 'loading');
  let scored = 0;
  try {
    for (const conversation of conversations) {
      const bench = await openBenchStore(options.store);
      const access = accessSwitch(bench.store);
      const clock = benchClock();
      const memory = withTuning(
        createMemory({
          store: access.store,
          tokenizer,
          clock,
          ...(embedder ? { embedder } : {}),
        }),
        tuning,
        embedder,
      );
      try {
        hooks.progress.phase(`${conversation.id}: observing`);
        const observed = await observeConversation({ memory, clock, conversation, progress: hooks.progress });
        tallies.get('strata')?.addObserve(observed.turns, observed.elapsedMs);

        // Scoring probes must not reinforce what they return: every question meets the same memory.
        access.freeze();
        const lastSession = conversation.sessions.at(-1)!;
        clock.set(lastSession.turns.at(-1)!.at + QUESTION_DELAY_MS);
        const questionScope = sessionScope(conversation, lastSession.index + 1);
        const strategies = buildStrategies({
          names,
          memory,
          store: bench.store,
          embedder,
          tokenizer,
          conversation,
          plan,
          questionScope,
        });
        const knownTurns = new Set(allTurns(conversation).map((turn) => turn.id));

        hooks.progress.phase(`${conversation.id}: questions`);
        for (const question of conversation.questions) {
          if (question.category === ADVERSARIAL_CATEGORY) continue;
          hooks.progress.advance();
          const evidence = parseEvidence(question.evidence, knownTurns);
          if (evidenceSize(evidence) === 0) {
            notes.questionsWithoutEvidence += 1;
            continue;
          }
          scored += 1;
          const record: QuestionRecord = {
            conversation: conversation.id,
            question: question.question,
            category: question.category,
            evidence: evidence.turns,
            unresolvedEvidence: evidence.unresolved,
            strategies: {},
          };
          // Strategies are told the question's text only; its evidence stays here, with the scorer.
          const asked = askedQuestion(question);
          for (const strategy of strategies) {
            const retrieval = await strategy.retrieve(asked);
            const scores = tallies
              .get(strategy.name)!
              .addQuestion({ category: question.category, evidence, retrieval });
            record.strategies[strategy.name] = strategyRecord({
              retrieval,
              scores,
              maxK: plan.ks.at(-1) ?? 0,
            });
          }
          await log?.write(record);
        }

        const probed = new Map<IngestPath, { turns: number; elapsedMs: number }>();
        for (const name of names) {
          if (name === 'strata') continue;
          const path = INGEST_PATH[name];
          let result = probed.get(path);
          if (!result) {
            result = await probeIngest({
              path,
              store: bench.store,
              conversation,
              ...(embedder ? { embedder } : {}),
            });
            probed.set(path, result);
          }
          tallies.get(name)!.addObserve(result.turns, result.elapsedMs);
        }
      } finally {
        await memory.close();
        await bench.close();
      }
    }
  } finally {
    hooks.progress.stop();
    await log?.close();
  }

  const strategies: LocomoReport['strategies'] = {};
  for (const [name, tally] of tallies) {
    strategies[name] = tally.summary();
    if (tally.overBudget > 0) notes.overBudget[name] = tally.overBudget;
  }
  return {
    report: {
      benchmark: 'locomo',
      conversations: conversations.length,
      questions: scored,
      store: options.store,
      embedder: options.embedder,
      strategies,
    },
    notes,
  };
}

/**
 * The memory, its `recall` built with `tuning` (the engine's own recall over the same store,
 * embedder, tokenizer, clock and policy); the memory itself without any.
 */
function withTuning(memory: Memory, tuning: Partial<RecallTuning>, embedder: Embedder | undefined): Memory {
  if (Object.keys(tuning).length === 0) return memory;
  const recall = createRecall({
    store: memory.store,
    ...(embedder ? { embedder } : {}),
    tokenizer: memory.tokenizer,
    summarizer: extractiveSummarizer(),
    clock: memory.clock,
    policy: memory.policy,
    tuning,
  });
  return { ...memory, recall };
}
