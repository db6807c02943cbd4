import type { Memory, MemoryContext, Scope } from '@strata-memory/core';
import type { BudgetedContext, QuestionRetrieval, RetrievalPlan, Strategy } from './types.ts';

/**
 * Episodes the ranking recall considers at least (the engine's default at budgets up to 1,000
 * tokens), so recall@k for one k does not depend on which other k were asked for.
 */
export const RANKING_MIN_EPISODES = 20;

/** The most `maxEpisodes` a recall accepts: the largest k the benchmark can score. */
export const MAX_RANKED_ITEMS = 200;

/**
 * `strata`: the full engine. First one recall at the largest budget with nothing but the query and
 * the budget, as an agent would call it: the timed call, the first recall of this question, so the
 * engine embeds the query inside it (the benchmark's embedder keeps no text cache either). Then,
 * untimed, one recall per other budget (what each context holds is scored, and the rendered
 * context must fit its budget) and one that ranks (budget large enough not to bind, `maxEpisodes`
 * the largest k): the first k of `MemoryContext.items` give recall@k.
 */
export function strataStrategy(args: {
  memory: Memory;
  /** A new session's thread: the working window holds nothing from the dataset. */
  scope: Scope;
  plan: RetrievalPlan;
  knownTurns: ReadonlySet<string>;
  /** Budget of the ranking recall. */
  rankingBudgetTokens: number;
}): Strategy {
  const { memory, scope, plan, knownTurns } = args;
  const maxK = plan.ks.at(-1) ?? 1;
  const maxBudget = plan.budgets.at(-1) ?? 0;
  const itemTurns = (context: MemoryContext) =>
    context.items.map((item) => item.sources.messageIds.filter((id) => knownTurns.has(id)));

  return {
    name: 'strata',
    scored: true,
    async retrieve({ question: query }): Promise<QuestionRetrieval> {
      const recall = (budget: number, maxEpisodes?: number) =>
        memory.recall(scope, {
          query,
          budget: { tokens: budget },
          // The ranked list is the ranking itself; the budgeted contexts are what an agent is told.
          ...(maxEpisodes === undefined ? {} : { maxEpisodes, relevanceBar: false }),
        });

      const start = performance.now();
      const largest = await recall(maxBudget);
      const latenciesMs = [performance.now() - start];
      const budgets = new Map<number, BudgetedContext>();
      for (const budget of plan.budgets) {
        const context = budget === maxBudget ? largest : await recall(budget);
        const tokens = Math.max(context.tokens, memory.tokenizer.count(context.render()));
        const overBudget = tokens > budget;
        budgets.set(budget, { turns: overBudget ? [] : itemTurns(context).flat(), tokens, overBudget });
      }
      const ranking = await recall(args.rankingBudgetTokens, Math.max(maxK, RANKING_MIN_EPISODES));
      return {
        ranked: itemTurns(ranking),
        budgets,
        contextTokens: budgets.get(maxBudget)?.tokens ?? 0,
        latenciesMs,
      };
    },
  };
}
