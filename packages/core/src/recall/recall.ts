import { z } from 'zod/v4';
import { accessLevelOf } from '../engine/policy.ts';
import type { ExplainEntry, Layer, MemoryContext, MemoryPolicy, RecallOptions } from '../engine/types.ts';
import type { Clock, Embedder, Summarizer, Tokenizer } from '../ports/ports.ts';
import { idSchema, type Scope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import { parseArgs } from '../store/define-store.ts';
import { literalsHeldBy } from '../working/rolling-summary.ts';
import { loadWorkingMemory, type WorkingMemory } from '../working/working-memory.ts';
import {
  assembleBlock,
  type BlockOverhead,
  blockOverhead,
  listedTokens,
  type WorkingLine,
} from './context-block.ts';
import { type EpisodeRetrieval, renderEpisode, retrieveEpisodes } from './episode-retrieval.ts';
import { blockFactLines, type FactCandidate, loadCurrentFacts, scoreFacts } from './fact-selection.ts';
import { type GraphRetrieval, retrieveGraphPaths } from './graph-retrieval.ts';
import type { LongTermCandidate } from './long-term-items.ts';
import { buildMemoryContext } from './memory-context.ts';
import { QueryVectors } from './query-vectors.ts';
import { applyRelevanceBar } from './relevance-bar.ts';
import { type RecallStage, StageTimer } from './stage-timer.ts';
import { type SummaryView, summaryView } from './summary-view.ts';
import { TokenCounter } from './token-counter.ts';
import { defaultRecallTuning, type RecallTuning } from './tuning.ts';

export type { RecallStage } from './stage-timer.ts';
export { defaultRecallTuning, type RecallTuning } from './tuning.ts';

export interface RecallDeps {
  store: Store;
  embedder?: Embedder;
  tokenizer: Tokenizer;
  summarizer: Summarizer;
  clock: Clock;
  policy: Readonly<MemoryPolicy>;
  /** Internal pipeline knobs, for ablations; the defaults are the shipped behaviour. */
  tuning?: Partial<RecallTuning>;
  /**
   * Called after each recall with the wall time of its stages in milliseconds (for benchmarks).
   * Stages that run concurrently overlap.
   */
  onStages?: (stages: Partial<Record<RecallStage, number>>) => void;
  /**
   * For benchmarks: load working memory, facts, episodes and graph one after another instead of
   * concurrently, so each stage's time is its own. Same results, slower.
   */
  sequentialStages?: boolean;
}

const ALL_LAYERS: readonly Layer[] = ['working', 'summary', 'facts', 'episodes', 'graph'];
/** Episodes a recall considers at least when `maxEpisodes` is not given. */
const MIN_EPISODES = 20;
/** Tokens an episode line takes, about (date, speaker, a sentence or two): sizes the default cap. */
const EPISODE_TOKENS_ESTIMATE = 50;
const MAX_EPISODES = 200;

/**
 * Without `maxEpisodes`, the budget sets how many episodes compete for it: 20 at most budgets, more
 * when the budget has room for more (2,000 tokens: 40), so a large budget is not left half empty.
 */
export function defaultMaxEpisodes(budget: number, episodeTokens = EPISODE_TOKENS_ESTIMATE): number {
  return Math.min(MAX_EPISODES, Math.max(MIN_EPISODES, Math.floor(budget / episodeTokens)));
}

const recallOptionsSchema = z
  .object({
    query: z.string().max(10_000, 'must be at most 10000 characters').optional(),
    budget: z
      .object({ tokens: z.number().int().min(1).max(1_000_000) })
      .strict()
      .optional(),
    principal: z
      .object({
        id: idSchema,
        role: z.string().min(1).max(512).optional(),
        level: z.number().int().min(0).max(1_000_000).optional(),
      })
      .strict()
      .optional(),
    layers: z.array(z.enum(['working', 'summary', 'facts', 'episodes', 'graph'])).optional(),
    maxEpisodes: z.number().int().min(1).max(MAX_EPISODES).optional(),
    relevanceBar: z.boolean().optional(),
  })
  .strict();

/**
 * Builds the engine's `recall`: a router plus a budget.
 *
 * - Router: facts and working memory always; episodic search when there is a query; graph
 *   traversal only when the query names a known entity or alias.
 * - Budget (see `context-block.ts`): the working window and its rolling summary get
 *   `policy.workingShare` of the budget when there is a query (more without); facts are reserved
 *   next; episodes and graph paths fill the rest by value per token; the rendered block is counted
 *   and whole pieces are removed until it fits, so `render()` never exceeds `budget.tokens`.
 * - One recall never shows the same words twice (an episode already in the window or the summary,
 *   a summary sentence an included episode shows).
 * - Everything considered is in `explain()`, included or not, with its numbers and why.
 * - Access to the episodes shown is recorded after the recall returns (never in its path); a
 *   failed write is reported in the next recall's `explain()`.
 *
 * The scope is validated by the caller; `options` are validated here.
 */
export function createRecall(
  deps: RecallDeps,
): (scope: Scope, options?: RecallOptions) => Promise<MemoryContext> {
  const tuning: RecallTuning = { ...defaultRecallTuning, ...deps.tuning };
  const { store, tokenizer, policy } = deps;
  // Item lines repeat across recalls (the same facts, episodes, messages): count each text once.
  const counter = new TokenCounter(tokenizer);
  const countLine = (text: string) => counter.count(text);
  const countLines = (lines: readonly string[]) => counter.countLines(lines);
  const queryVectors = new QueryVectors();
  let overhead: BlockOverhead | undefined;
  let accessWrites: Promise<void> = Promise.resolve();
  const accessFailures: string[] = [];

  return async function recall(scope, input = {}) {
    const timer = new StageTimer();
    const options = parseArgs(recallOptionsSchema, input, 'recall: options');
    const accessLevel = accessLevelOf(options.principal, policy);
    const query = options.query?.trim() ? options.query.trim() : undefined;
    const layers = new Set<Layer>(options.layers ?? ALL_LAYERS);
    const budget = options.budget?.tokens ?? policy.defaultBudgetTokens;
    const now = deps.clock.now();
    const explain: ExplainEntry[] = [];
    for (const failure of accessFailures.splice(0)) {
      explain.push({ layer: 'episodes', id: 'access-record', tokens: 0, reason: failure, included: false });
    }

    const workingShare = query ? policy.workingShare : Math.max(policy.workingShare, 1 - policy.workingShare);
    const wantsWorking = (layers.has('working') || layers.has('summary')) && scope.threadId !== undefined;

    const loads = [
      () =>
        wantsWorking
          ? timer.time('working', () =>
              loadWorkingMemory({
                store,
                scope,
                tokenizer,
                summarizer: deps.summarizer,
                clock: deps.clock,
                maxTokens: Math.floor(budget * workingShare),
                withSummary: layers.has('summary'),
                countLine,
                accessLevel,
              }),
            )
          : undefined,
      () =>
        layers.has('facts')
          ? timer.time('facts', () => loadFacts(scope, accessLevel, query, now, explain))
          : [],
      () =>
        layers.has('episodes') && query
          ? timer.time('episodes', () =>
              retrieveEpisodes({
                store,
                ...(deps.embedder ? { embedder: deps.embedder } : {}),
                scope,
                accessLevel,
                query,
                now,
                policy,
                tuning,
                maxEpisodes:
                  options.maxEpisodes ??
                  (tuning.budgetScaledEpisodes ? defaultMaxEpisodes(budget) : MIN_EPISODES),
                timer,
                queryVectors,
                whileWaiting: (likely) => {
                  for (const episode of likely) listedTokens(countLine, renderEpisode(episode));
                },
              }),
            )
          : undefined,
      () =>
        layers.has('graph') && query
          ? timer.time('graph', () => retrieveGraphPaths({ store, scope, accessLevel, query, tuning }))
          : undefined,
    ] as const;
    const [working, facts, episodes, graph] = deps.sequentialStages
      ? [await loads[0](), await loads[1](), await loads[2](), await loads[3]()]
      : await Promise.all([loads[0](), loads[1](), loads[2](), loads[3]()]);

    if (working) explain.push(...working.explain);
    if (episodes) explain.push(...episodes.notes, ...episodes.dropped);
    if (graph) explain.push(...graph.notes, ...graph.dropped);
    if (!query && layers.has('episodes')) {
      explain.push({
        layer: 'episodes',
        id: 'episodic-router',
        tokens: 0,
        reason: 'no query; episodes not searched',
        included: false,
      });
    }

    const summary = working?.summary ? summaryOf(working.summary, facts, query) : undefined;
    const candidates = applyRelevanceBar({
      facts: factCandidates(facts, scope.userId),
      others: otherCandidates(episodes, graph),
      ...(query === undefined || options.relevanceBar === false ? {} : { query }),
      ...(scope.userId === undefined ? {} : { userId: scope.userId }),
    });
    const block = timer.timeSync('assemble', () => {
      overhead ??= blockOverhead(tokenizer);
      return assembleBlock(
        {
          budget,
          summaryBudget: working?.summaryBudget ?? 0,
          messages: working && layers.has('working') ? workingLines(working) : [],
          ...(summary ? { summary } : {}),
          facts: candidates.facts,
          others: candidates.others,
          ...(scope.userId === undefined ? {} : { viewerId: scope.userId }),
          factShare: tuning.factShare,
          packing: tuning.packing,
          tokenPrior: tuning.tokenPrior,
        },
        { tokenizer, countLine, countLines, overhead },
      );
    });

    const context = buildMemoryContext({
      scope,
      ...(query === undefined ? {} : { query }),
      block,
      belowBar: candidates.below,
      ...(summary ? { summary } : {}),
      explain,
      countLine,
    });

    const accessed = context.sections.episodes.map((e) => e.id);
    if (accessed.length > 0) recordAccessLater(scope, accessed, now);
    deps.onStages?.(timer.stages());
    return context;
  };

  /**
   * Raises the access count of the episodes a recall showed, after it returned. Writes run one
   * after another; a failure is reported in the next recall's `explain()`.
   */
  function recordAccessLater(scope: Scope, ids: string[], at: number): void {
    accessWrites = accessWrites
      .then(() => store.episodes.recordAccess({ scope, ids, at }))
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        accessFailures.push(`recording access to ${ids.length} recalled episode(s) failed: ${message}`);
      });
  }

  /** The summary as sentences, protected where they carry a literal no current fact holds. */
  function summaryOf(summary: string, facts: FactCandidate[], query: string | undefined): SummaryView {
    return summaryView(summary, literalsHeldBy(facts.map((f) => f.fact)), query);
  }

  async function loadFacts(
    scope: Scope,
    accessLevel: number,
    query: string | undefined,
    now: number,
    explain: ExplainEntry[],
  ): Promise<FactCandidate[]> {
    const { current, shadowed } = await loadCurrentFacts({ store, scope, accessLevel });
    for (const s of shadowed) {
      explain.push({
        layer: 'facts',
        id: s.fact.id,
        tokens: 0,
        reason: `shadowed by ${s.by.id}, the same key at a more specific scope`,
        included: false,
      });
    }
    return scoreFacts({ facts: current, ...(query ? { query } : {}), now, policy });
  }

  function factCandidates(facts: FactCandidate[], viewerId: string | undefined): LongTermCandidate[] {
    return facts.map((f) => ({
      layer: 'facts' as const,
      id: f.fact.id,
      tokens: listedTokens(countLine, blockFactLines([f], viewerId)[0]!),
      value: f.value,
      fact: f,
    }));
  }

  function otherCandidates(
    episodes: EpisodeRetrieval | undefined,
    graph: GraphRetrieval | undefined,
  ): LongTermCandidate[] {
    const out: LongTermCandidate[] = [];
    for (const e of episodes?.selected ?? []) {
      out.push({
        layer: 'episodes',
        id: e.episode.id,
        tokens: listedTokens(countLine, e.text),
        value: e.value,
        episode: e,
      });
    }
    for (const p of graph?.paths ?? []) {
      out.push({
        layer: 'graph',
        id: p.id,
        tokens: listedTokens(countLine, p.text),
        value: p.value,
        path: p,
      });
    }
    return out;
  }

  function workingLines(working: WorkingMemory): WorkingLine[] {
    return working.messages.map((message) => ({
      message,
      line: working.lines.get(message.id) ?? '',
      tokens: working.tokens.get(message.id) ?? 0,
      pinned: working.pinned.has(message.id),
    }));
  }
}
