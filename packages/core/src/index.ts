export { type HashEmbedderOptions, hashEmbedder } from './embed/hash-embedder.ts';
export { estimateImportance } from './episodic/importance.ts';
export { type OutdatedFact, outdatedFactsOf } from './episodic/outdated-episodes.ts';
export {
  conflict,
  type ErrorCategory,
  type ErrorCode,
  invalidInput,
  notFound,
  StrataError,
  type StrataErrorOptions,
  unsupported,
} from './errors/strata-error.ts';
export { GROUP_ENTITY, SPEAKER_ENTITY, UNRESOLVED_ENTITY } from './extract/entity-references.ts';
export { type ModelExtractorOptions, modelExtractor } from './extract/model-extractor.ts';
export { RULES_EXTRACTOR_ID, type RulesExtractorOptions, rulesExtractor } from './extract/rules-extractor.ts';
export { createMemory } from './memory/create-memory.ts';
export { accessLevelOf, defaultPolicy, resolvePolicy } from './memory/policy.ts';
export type * from './memory/types.ts';
export * from './ports/ports.ts';
export { createRecall, defaultRecallTuning, type RecallDeps, type RecallTuning } from './recall/recall.ts';
export { accessWeight, cosine, recencyWeight, retentionValue } from './recall/scoring.ts';
export * from './scope/scope.ts';
export * from './store/contract.ts';
export { defineStore, parseArgs, validationError } from './store/define-store.ts';
export { LIMITS } from './store/limits.ts';
export { analyzeText } from './store/memory/keyword-analyzer.ts';
export { type MemoryStoreOptions, memoryStore } from './store/memory/memory-store.ts';
export { contentHash, createId, normalizeName, normalizeText } from './store/normalize.ts';
export * from './store/records.ts';
export * as storeSchemas from './store/schemas.ts';
export { defaultTokenizer } from './tokenizer/tokenizer.ts';
export { type ExtractiveSummarizerOptions, extractiveSummarizer } from './working/extractive-summarizer.ts';
