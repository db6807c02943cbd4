/**
 * NOT SEMANTIC. The lexical fallback from core, re-exported for convenience: the hashing trick over
 * words and word pairs. "car" and "automobile" are unrelated to it. Deterministic, dependency-free
 * and instant: for tests, or as a last resort when the model weights cannot be installed.
 */
export { type HashEmbedderOptions, hashEmbedder } from '@strata-memory/core';
export {
  type LocalEmbedder,
  type LocalEmbedderOptions,
  type LocalEmbedderStats,
  localEmbedder,
} from './local-embedder.ts';
export type { UseLiteBackend } from './use-lite/use-lite-model.ts';
export { USE_LITE_WEIGHTS_PACKAGE } from './use-lite/weights-package.ts';
