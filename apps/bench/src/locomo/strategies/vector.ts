import { type Embedder, type Scope, type Store, StrataError, type Tokenizer } from '@strata-memory/core';
import { rankedEpisodeRetrieval } from './ranked-episodes.ts';
import type { RetrievalPlan, Strategy } from './types.ts';

/**
 * `vector`: what plain vector memory does. The question is embedded with the same embedder the
 * engine used, and the store's vector search ranks the observed episodes by cosine similarity;
 * top-ranked turns fill each budget. Query embedding time counts toward its latency.
 */
export function vectorStrategy(args: {
  store: Store;
  embedder: Embedder;
  scope: Scope;
  tokenizer: Tokenizer;
  plan: RetrievalPlan;
  knownTurns: ReadonlySet<string>;
}): Strategy {
  return {
    name: 'vector',
    scored: true,
    async retrieve({ question: query }) {
      return rankedEpisodeRetrieval({
        ...args,
        search: async (limit) => {
          const [vector] = await args.embedder.embed({ texts: [query] });
          if (!vector) throw noVector(args.embedder.id);
          return args.store.episodes.searchVector({ scope: args.scope, vector, limit });
        },
      });
    },
  };
}

function noVector(embedder: string): StrataError {
  return new StrataError({
    code: 'model_failure',
    message: `The embedder ${embedder} returned no vector for the query.`,
    details: { embedder },
  });
}
