import { formatExplanation } from '@strata-memory/core/internals';
import type { Command } from 'commander';
import { action } from '../program.ts';
import { integerOption, type ReaderOptions, readerOf, withReader } from '../reader-options.ts';

interface RecallOptions extends ReaderOptions {
  budget?: number;
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
              formatExplanation(explain),
            ].join('\n');
          },
        );
        return undefined;
      }),
    );
}
