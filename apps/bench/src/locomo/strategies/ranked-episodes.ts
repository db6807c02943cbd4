import { LIMITS, type ScoredEpisode, type Tokenizer } from '@strata-memory/core';
import { type ContextLine, contextLine, packLines } from './context-lines.ts';
import { episodeTurns } from './episode-turns.ts';
import type { BudgetedContext, QuestionRetrieval, RetrievalPlan } from './types.ts';

/** Fewest tokens a context line is assumed to cost when sizing a search to fill a budget. */
const MIN_LINE_TOKENS = 8;

/**
 * Runs a top-k episode search (keyword or vector) with a k large enough for the largest k and
 * the largest budget, and turns the hits into ranked items and budgeted contexts. If every hit
 * fit in the largest budget and the store may hold more, it searches again with a larger k.
 */
export async function rankedEpisodeRetrieval(args: {
  search: (limit: number) => Promise<ScoredEpisode[]>;
  plan: RetrievalPlan;
  tokenizer: Tokenizer;
  knownTurns: ReadonlySet<string>;
}): Promise<QuestionRetrieval> {
  const { plan, tokenizer, knownTurns } = args;
  const maxK = plan.ks.at(-1) ?? 1;
  const maxBudget = plan.budgets.at(-1) ?? 0;
  let limit = Math.min(LIMITS.maxLimit, Math.max(maxK, Math.ceil(maxBudget / MIN_LINE_TOKENS)));
  // A search repeated with a larger k is one retrieval: its durations add up.
  let elapsedMs = 0;
  for (;;) {
    const start = performance.now();
    const hits = await args.search(limit);
    elapsedMs += performance.now() - start;
    const lines: ContextLine[] = hits.map(({ episode }) =>
      contextLine({ turns: episodeTurns(episode, knownTurns), speaker: episode.speaker, text: episode.text }),
    );
    const budgets = new Map<number, BudgetedContext>();
    let lastPacked = 0;
    for (const budget of plan.budgets) {
      const packed = packLines({ lines, budget, tokenizer });
      budgets.set(budget, packed.context);
      lastPacked = packed.lines.length;
    }
    const exhausted = hits.length === limit && lastPacked === hits.length && limit < LIMITS.maxLimit;
    if (exhausted) {
      limit = Math.min(LIMITS.maxLimit, limit * 4);
      continue;
    }
    return {
      ranked: lines.map((line) => line.turns),
      budgets,
      contextTokens: budgets.get(maxBudget)?.tokens ?? 0,
      latenciesMs: [elapsedMs],
    };
  }
}
