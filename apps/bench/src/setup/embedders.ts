import { type Embedder, hashEmbedder } from '@strata-memory/core';

export const EMBEDDER_KINDS = ['local', 'hash', 'none'] as const;
export type EmbedderKind = (typeof EMBEDDER_KINDS)[number];

/**
 * `local`: the offline sentence embedder (`@strata-memory/embed-local`); `hash`: core's lexical
 * hashing embedder (not semantic); `none`: no embedder (keyword-only recall, no vector baseline).
 */
export async function createEmbedder(kind: EmbedderKind): Promise<Embedder | undefined> {
  switch (kind) {
    case 'none':
      return undefined;
    case 'hash':
      return hashEmbedder();
    case 'local': {
      const { localEmbedder } = await import('@strata-memory/embed-local');
      return localEmbedder();
    }
  }
}
