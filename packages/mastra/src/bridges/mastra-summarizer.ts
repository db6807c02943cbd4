import { modelSummarizer, type Summarizer } from '@strata-memory/core';
import { type MastraCompletionModelOptions, mastraCompletionModel } from './mastra-completion-model.ts';

export interface MastraSummarizerOptions extends MastraCompletionModelOptions {
  /** Extra instructions for the engine's summary prompt (tone, what matters in your domain). */
  instructions?: string;
}

/**
 * A Mastra model as the engine's rolling-summary writer: core's `modelSummarizer` over
 * `mastraCompletionModel`. The engine demands every number, amount, date and name word for word
 * and checks the reply with its fidelity guard; a summary that drops or hedges one is rejected and
 * the engine keeps an extractive fold instead.
 */
export function mastraSummarizer(options: MastraSummarizerOptions): Summarizer {
  const { instructions, ...completion } = options;
  return modelSummarizer({
    model: mastraCompletionModel(completion),
    ...(instructions !== undefined ? { instructions } : {}),
  });
}
