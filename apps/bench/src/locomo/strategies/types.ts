export const STRATEGY_NAMES = ['strata', 'bm25', 'vector', 'recent', 'full-context'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

/** What a strategy fed into a context for one budget. */
export interface BudgetedContext {
  /** The turns the context holds (for recall). */
  turns: string[];
  /** Tokens of the context, by the shared tokenizer. */
  tokens: number;
  /** True when the strategy returned more than the budget allows (scored as recall 0). */
  overBudget: boolean;
}

/** One strategy's answer to one question. */
export interface QuestionRetrieval {
  /**
   * Items best first, each as the dataset turn it came from (one at most: the scorer rejects an item
   * from more than one); scored at every k. Empty when `scored` is false.
   */
  ranked: string[][];
  /** One context per budget. Empty when `scored` is false. */
  budgets: Map<number, BudgetedContext>;
  /** Tokens of the context at the largest budget (for `full-context`: the whole conversation). */
  contextTokens: number;
  /** Duration of each retrieval call made for the question. */
  latenciesMs: number[];
}

/**
 * All a strategy is told about a question: its text. Evidence, answers and categories stay with the
 * scorer (`askedQuestion` builds this from a dataset question).
 */
export interface AskedQuestion {
  readonly question: string;
}

/** The question text of a dataset question, and nothing else of it. */
export function askedQuestion(question: { question: string }): AskedQuestion {
  return Object.freeze({ question: question.question });
}

export interface Strategy {
  readonly name: StrategyName;
  /** False for `full-context`, which holds every turn and reports tokens only. */
  readonly scored: boolean;
  retrieve(asked: AskedQuestion): Promise<QuestionRetrieval>;
}

/** Where a strategy reads and what it must produce. */
export interface RetrievalPlan {
  /** Ascending. */
  ks: readonly number[];
  /** Ascending token budgets. */
  budgets: readonly number[];
}
