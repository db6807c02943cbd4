import { modelSummarizer, type Summarizer } from '@strata-memory/core';
import {
  type LangChainCompletionModelOptions,
  langChainCompletionModel,
} from './langchain-completion-model.ts';

export interface LangChainSummarizerOptions extends LangChainCompletionModelOptions {
  /** Extra instructions for the engine's summary prompt (tone, what matters in your domain). */
  instructions?: string;
}

/**
 * A LangChain chat model as the engine's rolling-summary writer: core's `modelSummarizer` over
 * `langChainCompletionModel`. The engine owns the prompt (every number, amount, date and name word
 * for word) and checks the reply with its fidelity guard; a summary that drops or hedges a literal
 * is rejected and the engine keeps an extractive fold instead.
 */
export function langChainSummarizer(options: LangChainSummarizerOptions): Summarizer {
  const { instructions, ...completion } = options;
  return modelSummarizer({
    model: langChainCompletionModel(completion),
    ...(instructions !== undefined ? { instructions } : {}),
  });
}
