export type { MemoryErrorEvent, MemoryErrorReporter, RecallErrorPolicy } from '@strata-memory/core';
export { type AiSdkCompletionModelOptions, aiSdkCompletionModel } from './bridges/ai-sdk-completion-model.ts';
export { type AiSdkEmbedderOptions, aiSdkEmbedder } from './bridges/ai-sdk-embedder.ts';
export { type AiSdkExtractorOptions, aiSdkExtractor } from './bridges/ai-sdk-extractor.ts';
export { type AiSdkSummarizerOptions, aiSdkSummarizer } from './bridges/ai-sdk-summarizer.ts';
export { type StrataMiddlewareOptions, strataMiddleware } from './middleware/strata-middleware.ts';
export { withMemory } from './middleware/with-memory.ts';
export { STRATA_OPTIONS_KEY, strataProviderOptions } from './scope/request-scope.ts';
export {
  type CorrectInput,
  type CorrectOutput,
  type FactView,
  type ForgetInput,
  type ForgetOutput,
  type MemoryToolContext,
  type MemoryToolName,
  type MemoryTools,
  type MemoryToolsOptions,
  memoryTools,
  memoryToolsContext,
  type RecalledItemView,
  type RecallInput,
  type RecallOutput,
  type RememberInput,
  type RememberOutput,
} from './tools/memory-tools.ts';
