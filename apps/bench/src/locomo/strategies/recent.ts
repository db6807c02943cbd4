import type { Scope, Store, Tokenizer } from '@strata-memory/core';
import { type ContextLine, contextLine, packLines } from './context-lines.ts';
import { threadMessages, threadsNewestFirst } from './thread-messages.ts';
import type { BudgetedContext, RetrievalPlan, Strategy } from './types.ts';

/**
 * `recent`: what buffer memory does. The latest turns of the conversation, read back from the
 * store's threads newest first, as an unbroken window that fits the budget (recall@k: the last k
 * turns). It ignores the question.
 */
export function recentStrategy(args: {
  store: Store;
  /** The conversation's user scope: every session thread lies under it. */
  conversationScope: Scope;
  tokenizer: Tokenizer;
  plan: RetrievalPlan;
  knownTurns: ReadonlySet<string>;
}): Strategy {
  const { store, tokenizer, plan, knownTurns } = args;
  const maxK = plan.ks.at(-1) ?? 1;
  const maxBudget = plan.budgets.at(-1) ?? 0;
  return {
    name: 'recent',
    scored: true,
    async retrieve() {
      const start = performance.now();
      const lines: ContextLine[] = [];
      let tokens = 0;
      // Read newest first until both the largest k and the largest budget are covered.
      reading: for (const thread of await threadsNewestFirst(store, args.conversationScope)) {
        for await (const message of threadMessages(store, thread, 'desc')) {
          const turns = knownTurns.has(message.id) ? [message.id] : [];
          const line = contextLine({ turns, speaker: message.name, text: message.content });
          lines.push(line);
          tokens += tokenizer.count(line.text) + 1;
          if (lines.length >= maxK && tokens > maxBudget) break reading;
        }
      }
      const latencyMs = performance.now() - start;
      const budgets = new Map<number, BudgetedContext>();
      for (const budget of plan.budgets) {
        budgets.set(budget, packLines({ lines, budget, tokenizer, contiguous: true }).context);
      }
      return {
        ranked: lines.map((line) => line.turns),
        budgets,
        contextTokens: budgets.get(maxBudget)?.tokens ?? 0,
        latenciesMs: [latencyMs],
      };
    },
  };
}
