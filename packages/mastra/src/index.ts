export type { MemoryErrorEvent, MemoryErrorReporter, RecallErrorPolicy } from '@strata-memory/core';
export {
  type MastraCompletionModelOptions,
  type MastraModel,
  mastraCompletionModel,
} from './bridges/mastra-completion-model.ts';
export { type MastraExtractorOptions, mastraExtractor } from './bridges/mastra-extractor.ts';
export { type MastraSummarizerOptions, mastraSummarizer } from './bridges/mastra-summarizer.ts';
export type { BlockLayer, StrataMemoryOptions } from './memory/options.ts';
export { StrataMastraMemory, strataMemory } from './memory/strata-mastra-memory.ts';
export { MASTRA_CONTENT_KEY } from './messages/mastra-to-observe.ts';
export { StrataObserveProcessor } from './processors/observe-processor.ts';
export { MEMORY_BLOCK_TAG, StrataRecallProcessor } from './processors/recall-processor.ts';
export type {
  CorrectOutput,
  FactView,
  ForgetOutput,
  MemoryToolName,
  RecalledItemView,
  RecallOutput,
  RememberOutput,
} from './tools/memory-tools.ts';
export { WORKING_MEMORY_ENTITY_TYPE } from './working-memory/working-memory.ts';
