import type { ExplainEntry } from '@strata-memory/core';
import type { Command } from 'commander';
import { table } from '../output.ts';
import { action } from '../program.ts';
import { integerOption, type ReaderOptions, readerOf, withReader } from '../reader-options.ts';
import { formatScore } from '../text-format.ts';

interface RecallOptions extends ReaderOptions {
  budget?: number;
}

/** The explanation of a recall as a table: every candidate, in or out, with its scores and reason. */
export function explainTable(entries: ExplainEntry[]): string {
  return table(
    ['layer', 'id', 'in', 'tokens', 'keyword', 'vector', 'recency', 'importance', 'final', 'why'],
    entries.map((e) => [
      e.layer,
      e.id,
      e.included ? 'yes' : 'no',
      e.tokens,
      formatScore(e.scores?.keyword),
      formatScore(e.scores?.vector),
      formatScore(e.scores?.recency),
      formatScore(e.scores?.importance),
      formatScore(e.scores?.final),
      e.reason,
    ]),
  );
}

/** `strata recall <query> --scope …`: the memory block an agent would get, and why each item is in or out. */
export function register(program: Command): void {
  withReader(
    program
      .command('recall')
      .description('print the memory block a recall returns, then why each candidate is in or out')
      .argument('<query>', 'what the agent is about to answer'),
  )
    .option('--budget <tokens>', 'token budget of the block (default: the policy’s)', integerOption(1))
    .action(
      action(async (ctx, query: string, options: RecallOptions) => {
        const { memory } = await ctx.memory();
        const { scope, principal } = readerOf(memory, options);
        ctx.output.progress('recalling (the embedder loads on first use)…');
        const context = await memory.recall(scope, {
          query,
          principal,
          ...(options.budget === undefined ? {} : { budget: { tokens: options.budget } }),
        });
        const explain = context.explain();
        const budget = options.budget ?? memory.policy.defaultBudgetTokens;
        ctx.output.result(
          { scope, query, budget, tokens: context.tokens, block: context.render(), explain },
          () => {
            const included = explain.filter((e) => e.included).length;
            return [
              context.render(),
              '',
              `${explain.length} candidates, ${included} included, ${context.tokens} of ${budget} tokens:`,
              explainTable(explain),
            ].join('\n');
          },
        );
        return undefined;
      }),
    );
}
