import { type Extractor, modelExtractor } from '@strata-memory/core';
import { type MastraCompletionModelOptions, mastraCompletionModel } from './mastra-completion-model.ts';

export interface MastraExtractorOptions extends MastraCompletionModelOptions {
  /** Extra instructions for the engine's extraction prompt (domain vocabulary, entity types). */
  instructions?: string;
}

/**
 * A Mastra model as the engine's LLM extractor: core's `modelExtractor` over
 * `mastraCompletionModel`. The engine owns the prompt, the JSON Schema and the validation; one
 * model call per observed turn; a failed call or malformed output is recorded by `observe`
 * (`extract.failed` in the audit log) and the turn is still stored.
 */
export function mastraExtractor(options: MastraExtractorOptions): Extractor {
  const { instructions, ...completion } = options;
  return modelExtractor({
    model: mastraCompletionModel(completion),
    ...(instructions !== undefined ? { instructions } : {}),
  });
}
