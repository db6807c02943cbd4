import { type Extractor, modelExtractor } from '@strata-memory/core';
import { type AiSdkCompletionModelOptions, aiSdkCompletionModel } from './ai-sdk-completion-model.ts';

export interface AiSdkExtractorOptions extends AiSdkCompletionModelOptions {
  /** Extra instructions for the engine's extraction prompt (domain vocabulary, entity types). */
  instructions?: string;
}

/**
 * An AI SDK `LanguageModel` as the engine's LLM extractor: core's `modelExtractor` over
 * `aiSdkCompletionModel`. The engine owns the prompt, the JSON Schema and the validation; one
 * model call per observed turn; a failed call or malformed output is recorded by `observe`
 * (`extract.failed` in the audit log) and the turn is still stored.
 */
export function aiSdkExtractor(options: AiSdkExtractorOptions): Extractor {
  const { instructions, ...completion } = options;
  return modelExtractor({
    model: aiSdkCompletionModel(completion),
    ...(instructions !== undefined ? { instructions } : {}),
  });
}
