import { modelSummarizer, type Summarizer } from '@strata-memory/core';
import { type AiSdkCompletionModelOptions, aiSdkCompletionModel } from './ai-sdk-completion-model.ts';

export interface AiSdkSummarizerOptions extends AiSdkCompletionModelOptions {
  /** Extra instructions for the engine's summary prompt (tone, what matters in your domain). */
  instructions?: string;
}

/**
 * An AI SDK `LanguageModel` as the engine's rolling-summary writer: core's `modelSummarizer` over
 * `aiSdkCompletionModel`. The engine owns the prompt (every number, amount, date and name word for
 * word) and checks the reply with its fidelity guard; a summary that drops or hedges a literal is
 * rejected and the engine keeps an extractive fold instead.
 */
export function aiSdkSummarizer(options: AiSdkSummarizerOptions): Summarizer {
  const { instructions, ...completion } = options;
  return modelSummarizer({
    model: aiSdkCompletionModel(completion),
    ...(instructions !== undefined ? { instructions } : {}),
  });
}
