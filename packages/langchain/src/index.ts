export {
  type LangChainCompletionModelOptions,
  langChainCompletionModel,
  type StructuredOutputMode,
} from './bridges/langchain-completion-model.ts';
export { type LangChainEmbedderOptions, langChainEmbedder } from './bridges/langchain-embedder.ts';
export { type LangChainExtractorOptions, langChainExtractor } from './bridges/langchain-extractor.ts';
export { type LangChainSummarizerOptions, langChainSummarizer } from './bridges/langchain-summarizer.ts';
export {
  StrataChatMessageHistory,
  type StrataChatMessageHistoryOptions,
} from './history/strata-chat-message-history.ts';
export { StrataMemory, type StrataMemoryOptions } from './memory/strata-memory.ts';
export { fromMessageRecord, toObserveInput } from './messages/message-conversion.ts';
export {
  type RetrievableLayer,
  recalledDocument,
  type StrataDocumentMetadata,
  StrataRetriever,
  type StrataRetrieverOptions,
} from './retriever/strata-retriever.ts';
export type { RunScopeSource, ScopeOption, ScopeResolver } from './scope/run-scope.ts';
export {
  type CorrectInput,
  type CorrectOutput,
  type FactView,
  type ForgetInput,
  type ForgetOutput,
  type MemoryToolName,
  type RecalledItemView,
  type RecallInput,
  type RecallOutput,
  type RememberInput,
  type RememberOutput,
  type StrataMemoryTools,
  type StrataMemoryToolsOptions,
  strataMemoryTools,
} from './tools/memory-tools.ts';
