import { type LatencySummary, latencySummary } from '../stats/percentile.ts';
import type { Evidence } from './evidence.ts';
import { Mean, MeanTable, recallAtKs, turnRecall } from './scoring.ts';
import type { QuestionRetrieval, RetrievalPlan, StrategyName } from './strategies/types.ts';

/** One strategy's figures, as the JSON report gives them. Recall values are fractions 0..1. */
export interface StrategySummary {
  recallAtK: Record<string, number>;
  recallAtBudget: Record<string, number>;
  byCategory: Record<
    string,
    { questions: number; recallAtK: Record<string, number>; recallAtBudget: Record<string, number> }
  >;
  meanContextTokens: number;
  recallLatencyMs: LatencySummary;
  observePerSec: number;
}

/** One strategy's scores on one question (for the per-question log). */
export interface QuestionScores {
  recallAtK: Record<string, number>;
  recallAtBudget: Record<string, number>;
}

interface CategoryTally {
  questions: number;
  atK: MeanTable;
  atBudget: MeanTable;
}

/** Accumulates one strategy's results over every question of every conversation. */
export class StrategyTally {
  readonly #atK = new MeanTable();
  readonly #atBudget = new MeanTable();
  readonly #byCategory = new Map<number, CategoryTally>();
  readonly #contextTokens = new Mean();
  readonly #latenciesMs: number[] = [];
  #observedTurns = 0;
  #observeMs = 0;
  /** Contexts that came back larger than their budget (each scored as recall 0). */
  overBudget = 0;

  readonly name: StrategyName;
  readonly scored: boolean;
  readonly plan: RetrievalPlan;

  constructor(args: { name: StrategyName; scored: boolean; plan: RetrievalPlan }) {
    this.name = args.name;
    this.scored = args.scored;
    this.plan = args.plan;
  }

  addObserve(turns: number, elapsedMs: number): void {
    this.#observedTurns += turns;
    this.#observeMs += elapsedMs;
  }

  addQuestion(args: { category: number; evidence: Evidence; retrieval: QuestionRetrieval }): QuestionScores {
    const { retrieval } = args;
    this.#latenciesMs.push(...retrieval.latenciesMs);
    this.#contextTokens.add(retrieval.contextTokens);
    if (!this.scored) return { recallAtK: {}, recallAtBudget: {} };

    let category = this.#byCategory.get(args.category);
    if (!category) {
      category = { questions: 0, atK: new MeanTable(), atBudget: new MeanTable() };
      this.#byCategory.set(args.category, category);
    }
    category.questions += 1;
    const scores: QuestionScores = { recallAtK: {}, recallAtBudget: {} };
    for (const [k, recall] of recallAtKs(args.evidence, retrieval.ranked, this.plan.ks)) {
      this.#atK.add(k, recall);
      category.atK.add(k, recall);
      scores.recallAtK[k] = recall;
    }
    for (const budget of this.plan.budgets) {
      const context = retrieval.budgets.get(budget);
      if (context?.overBudget) this.overBudget += 1;
      const recall = context && !context.overBudget ? turnRecall(args.evidence, new Set(context.turns)) : 0;
      this.#atBudget.add(budget, recall);
      category.atBudget.add(budget, recall);
      scores.recallAtBudget[budget] = recall;
    }
    return scores;
  }

  summary(): StrategySummary {
    const byCategory: StrategySummary['byCategory'] = {};
    for (const [category, tally] of [...this.#byCategory.entries()].sort(([a], [b]) => a - b)) {
      byCategory[String(category)] = {
        questions: tally.questions,
        recallAtK: tally.atK.toRecord(),
        recallAtBudget: tally.atBudget.toRecord(),
      };
    }
    return {
      recallAtK: this.#atK.toRecord(),
      recallAtBudget: this.#atBudget.toRecord(),
      byCategory,
      meanContextTokens: this.#contextTokens.value,
      recallLatencyMs: latencySummary(this.#latenciesMs),
      observePerSec: this.#observeMs > 0 ? this.#observedTurns / (this.#observeMs / 1000) : Number.NaN,
    };
  }
}
