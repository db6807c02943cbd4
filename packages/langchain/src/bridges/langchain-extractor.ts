import { type Extractor, modelExtractor } from '@strata-memory/core';
import {
  type LangChainCompletionModelOptions,
  langChainCompletionModel,
} from './langchain-completion-model.ts';

export interface LangChainExtractorOptions extends LangChainCompletionModelOptions {
  /** Extra instructions for the engine's extraction prompt (domain vocabulary, entity types). */
  instructions?: string;
}

/**
 * A LangChain chat model as the engine's LLM extractor: core's `modelExtractor` over
 * `langChainCompletionModel`. The engine owns the prompt, the JSON Schema and the validation; one
 * model call per observed turn; a failed call or malformed output is recorded by `observe`
 * (`extract.failed` in the audit log) and the turn is still stored.
 */
export function langChainExtractor(options: LangChainExtractorOptions): Extractor {
  const { instructions, ...completion } = options;
  return modelExtractor({
    model: langChainCompletionModel(completion),
    ...(instructions !== undefined ? { instructions } : {}),
  });
}
