import { type FileHandle, open } from 'node:fs/promises';
import { StrataError } from '@strata-memory/core';
import type { QuestionRetrieval, StrategyName } from './strategies/types.ts';
import type { QuestionScores } from './strategy-tally.ts';

/** One line of `--out`: a question and what each strategy retrieved for it. */
export interface QuestionRecord {
  conversation: string;
  question: string;
  category: number;
  /** Evidence ids that name turns. */
  evidence: string[];
  /** Evidence ids that name no turn (counted as missed). */
  unresolvedEvidence: string[];
  strategies: Partial<
    Record<
      StrategyName,
      QuestionScores & {
        /** Turn ids of each ranked item, best first, up to the largest k. */
        ranked: string[][];
        /** Turn ids each budgeted context held, and its tokens. */
        contexts: Record<string, { turns: string[]; tokens: number; overBudget: boolean }>;
      }
    >
  >;
}

export function strategyRecord(args: {
  retrieval: QuestionRetrieval;
  scores: QuestionScores;
  maxK: number;
}): NonNullable<QuestionRecord['strategies'][StrategyName]> {
  const contexts: Record<string, { turns: string[]; tokens: number; overBudget: boolean }> = {};
  for (const [budget, context] of args.retrieval.budgets) contexts[String(budget)] = context;
  return { ...args.scores, ranked: args.retrieval.ranked.slice(0, args.maxK), contexts };
}

/** Writes question records as JSON lines, one per question, as they are scored. */
export class QuestionLog {
  readonly #file: FileHandle;

  private constructor(file: FileHandle) {
    this.#file = file;
  }

  static async open(path: string): Promise<QuestionLog> {
    try {
      return new QuestionLog(await open(path, 'w'));
    } catch (error) {
      throw new StrataError({ code: 'invalid_input', message: `Cannot write --out ${path}`, cause: error });
    }
  }

  async write(record: QuestionRecord): Promise<void> {
    await this.#file.write(`${JSON.stringify(record)}\n`);
  }

  async close(): Promise<void> {
    await this.#file.close();
  }
}
