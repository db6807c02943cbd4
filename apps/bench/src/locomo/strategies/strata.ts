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
 * `strata`: the full engine. One recall ranks (budget large enough not to bind, `maxEpisodes` the
 * largest k): the first k of `MemoryContext.items` give recall@k. Then one recall per budget with
 * nothing but the query and the budget, as an agent would call it: what the context holds is
 * scored, and the rendered context must fit the budget.
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
    async retrieve(query): Promise<QuestionRetrieval> {
      const latenciesMs: number[] = [];
      const recall = async (budget: number, maxEpisodes?: number) => {
        const start = performance.now();
        const context = await memory.recall(scope, {
          query,
          budget: { tokens: budget },
          // The ranked list is the ranking itself; the budgeted contexts are what an agent is told.
          ...(maxEpisodes === undefined ? {} : { maxEpisodes, relevanceBar: false }),
        });
        latenciesMs.push(performance.now() - start);
        return context;
      };

      const ranking = await recall(args.rankingBudgetTokens, Math.max(maxK, RANKING_MIN_EPISODES));
      const budgets = new Map<number, BudgetedContext>();
      for (const budget of plan.budgets) {
        const context = await recall(budget);
        const tokens = Math.max(context.tokens, memory.tokenizer.count(context.render()));
        const overBudget = tokens > budget;
        budgets.set(budget, { turns: overBudget ? [] : itemTurns(context).flat(), tokens, overBudget });
      }
      return {
        ranked: itemTurns(ranking),
        budgets,
        contextTokens: budgets.get(maxBudget)?.tokens ?? 0,
        latenciesMs,
      };
    },
  };
}
