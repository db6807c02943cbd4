import type { Scope, Store, Tokenizer } from '@strata-memory/core';
import { rankedEpisodeRetrieval } from './ranked-episodes.ts';
import type { RetrievalPlan, Strategy } from './types.ts';

/**
 * `bm25`: what plain keyword memory does. The store's own keyword search (FTS5 BM25 on SQLite,
 * `ts_rank_cd` on PostgreSQL, BM25 in memory) over the episodes the engine observed; top-ranked
 * turns fill each budget.
 */
export function keywordStrategy(args: {
  store: Store;
  scope: Scope;
  tokenizer: Tokenizer;
  plan: RetrievalPlan;
  knownTurns: ReadonlySet<string>;
}): Strategy {
  return {
    name: 'bm25',
    scored: true,
    async retrieve({ question: query }) {
      return rankedEpisodeRetrieval({
        ...args,
        search: (limit) => args.store.episodes.searchKeyword({ scope: args.scope, query, limit }),
      });
    },
  };
}
