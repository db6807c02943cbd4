import { type Embedder, hashEmbedder } from '@strata-memory/core';

export const EMBEDDER_KINDS = ['local', 'hash', 'none'] as const;
export type EmbedderKind = (typeof EMBEDDER_KINDS)[number];

/**
 * `local`: the offline sentence embedder (`@strata-memory/embed-local`); `hash`: core's lexical
 * hashing embedder (not semantic); `none`: no embedder (keyword-only recall, no vector baseline).
 * The local embedder keeps no text cache: a query embedded by one strategy is embedded again by the
 * next, so every strategy's latency includes its own query embedding.
 */
export async function createEmbedder(kind: EmbedderKind): Promise<Embedder | undefined> {
  switch (kind) {
    case 'none':
      return undefined;
    case 'hash':
      return hashEmbedder();
    case 'local': {
      const { localEmbedder } = await import('@strata-memory/embed-local');
      return localEmbedder({ cacheSize: 0 });
    }
  }
}
