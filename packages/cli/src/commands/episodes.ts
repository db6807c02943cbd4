import type { Command } from 'commander';
import { table } from '../output.ts';
import { action } from '../program.ts';
import { integerOption, type ReaderOptions, readerOf, withReader } from '../reader-options.ts';
import { formatScore, formatTime, oneLine } from '../text-format.ts';

/** Large enough that the episode limit, not the token budget, decides how many come back. */
const SEARCH_BUDGET_TOKENS = 1_000_000;

/** `strata episodes search <query>`: the engine's hybrid keyword + vector episode search. */
export function register(program: Command): void {
  const episodes = program.command('episodes').description('episodic memory: search <query>');

  withReader(
    episodes
      .command('search')
      .description('episodes ranked as recall ranks them: keyword + vector, recency, importance')
      .argument('<query>', 'what to look for'),
  )
    .option('--limit <n>', 'most episodes to return', integerOption(1, 200), 10)
    .action(
      action(async (ctx, query: string, options: ReaderOptions & { limit: number }) => {
        const { memory } = await ctx.memory();
        const { scope, principal } = readerOf(memory, options);
        ctx.output.progress('searching (the embedder loads on first use)…');
        const context = await memory.recall(scope, {
          query,
          principal,
          layers: ['episodes'],
          maxEpisodes: options.limit,
          budget: { tokens: SEARCH_BUDGET_TOKENS },
          // The ranking itself, not the block: every ranked episode, relevant enough or not.
          relevanceBar: false,
        });
        const ranked = [...context.sections.episodes].sort((a, b) => b.scores.final - a.scores.final);
        const hits = ranked.slice(0, options.limit).map((item) => ({
          id: item.id,
          occurredAt: item.episode.occurredAt,
          speaker: item.episode.speaker ?? item.episode.role ?? null,
          text: item.episode.text,
          scores: item.scores,
          reason: item.reason,
          scope: item.episode.scope,
        }));
        ctx.output.result({ scope, query, episodes: hits }, () =>
          hits.length === 0
            ? 'no episode matches'
            : table(
                ['id', 'when', 'speaker', 'keyword', 'vector', 'final', 'text'],
                hits.map((hit) => [
                  hit.id,
                  formatTime(hit.occurredAt),
                  hit.speaker ?? '',
                  formatScore(hit.scores.keyword),
                  formatScore(hit.scores.vector),
                  formatScore(hit.scores.final),
                  oneLine(hit.text, 70),
                ]),
              ),
        );
        return undefined;
      }),
    );
}
