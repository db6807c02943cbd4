import type { Tokenizer } from '@strata-memory/core';
import type { BudgetedContext } from './types.ts';

/** One turn as a plain memory puts it into a prompt: `Speaker: text`. */
export interface ContextLine {
  turns: string[];
  text: string;
}

export function contextLine(args: { turns: string[]; speaker?: string; text: string }): ContextLine {
  return { turns: args.turns, text: args.speaker ? `${args.speaker}: ${args.text}` : args.text };
}

/** Tokens of lines joined by newlines. */
export function linesTokens(lines: readonly ContextLine[], tokenizer: Tokenizer): number {
  return tokenizer.count(lines.map((line) => line.text).join('\n'));
}

/**
 * Packs lines in the given order (rank or recency) until the budget is full. By default a line
 * that does not fit is skipped and later, shorter ones still get their chance (first fit), so a
 * ranked baseline uses its budget as well as it can; `contiguous` stops at the first misfit. The joined text is counted again at the end and trimmed from the
 * tail if merging across line breaks made it longer, so `tokens <= budget` always holds.
 */
export function packLines(args: {
  lines: readonly ContextLine[];
  budget: number;
  tokenizer: Tokenizer;
  /** Stop at the first line that does not fit (a buffer keeps an unbroken window). */
  contiguous?: boolean;
}): { lines: ContextLine[]; context: BudgetedContext } {
  const { lines, budget, tokenizer } = args;
  const chosen: ContextLine[] = [];
  let used = 0;
  for (const line of lines) {
    const cost = tokenizer.count(line.text) + (chosen.length > 0 ? 1 : 0);
    if (used + cost > budget) {
      if (args.contiguous) break;
      continue;
    }
    chosen.push(line);
    used += cost;
  }
  let tokens = linesTokens(chosen, tokenizer);
  while (tokens > budget && chosen.length > 0) {
    chosen.pop();
    tokens = linesTokens(chosen, tokenizer);
  }
  return {
    lines: chosen,
    context: { turns: chosen.flatMap((line) => line.turns), tokens, overBudget: false },
  };
}
