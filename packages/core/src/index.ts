export { type HashEmbedderOptions, hashEmbedder } from './embed/hash-embedder.ts';
export { measureUnrelatedSimilarity, type SimilarityCalibration } from './embed/unrelated-similarity.ts';
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
export { modelFailure, modelOutputInvalid } from './extract/model-errors.ts';
export { type ModelExtractorOptions, modelExtractor } from './extract/model-extractor.ts';
export { RULES_EXTRACTOR_ID, type RulesExtractorOptions, rulesExtractor } from './extract/rules-extractor.ts';
export {
  FACT_INDEX_KEY,
  INDEXED_FACT_KEY,
  type IndexedFact,
  indexEpisodeIdsOf,
  indexedFactOf,
} from './facts/fact-index.ts';
export { createMemory } from './memory/create-memory.ts';
export { unitVector, unitVectors } from './memory/embedding-vectors.ts';
export * from './memory/failure-policy.ts';
export {
  budgetSchema,
  integrationOptionFields,
  layerSchema,
  memoryInstanceSchema,
  principalSchema,
  type RecallSettings,
  recallOptionsFor,
  recallSettingsSchema,
} from './memory/integration-options.ts';
export { accessLevelOf, defaultPolicy, resolvePolicy } from './memory/policy.ts';
export { parseBoundScope, resolveRequestScope } from './memory/request-scope.ts';
export type * from './memory/types.ts';
export * from './ports/ports.ts';
export { formatExplanation } from './recall/explanation.ts';
export {
  createRecall,
  defaultRecallTuning,
  type RecallDeps,
  type RecallStage,
  type RecallTuning,
} from './recall/recall.ts';
export { accessWeight, cosine, recencyWeight, retentionValue } from './recall/scoring.ts';
export * from './scope/scope.ts';
export type { ExportOptions, SnapshotProgress } from './snapshot/export-snapshot.ts';
export { type ImportOptions, parseSnapshot } from './snapshot/import-snapshot.ts';
export {
  countSnapshot,
  type EncodedVector,
  type MemorySnapshot,
  type ScopeSnapshot,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type SnapshotCounts,
} from './snapshot/snapshot-schema.ts';
export { sortKeys } from './snapshot/sort-keys.ts';
export { decodeVector, encodeVector } from './snapshot/vector-encoding.ts';
export * from './store/contract.ts';
export { defineStore, parseArgs, validationError } from './store/define-store.ts';
export { nextFactVersion } from './store/fact-versions.ts';
export { LIMITS } from './store/limits.ts';
export { analyzeText, ENGLISH_STOP_WORDS } from './store/memory/keyword-analyzer.ts';
export { type MemoryStoreOptions, memoryStore } from './store/memory/memory-store.ts';
export { contentHash, createId, normalizeName, normalizeText } from './store/normalize.ts';
export * from './store/records.ts';
export * as storeSchemas from './store/schemas.ts';
export {
  countScope,
  type ScopeCounts,
  type ScopeInventory,
  type ScopeInventoryEntry,
  scopeInventory,
} from './store/scope-inventory.ts';
export { defaultTokenizer } from './tokenizer/tokenizer.ts';
export {
  DEFAULT_TOOL_RECALL_BUDGET,
  MEMORY_TOOL_NAMES,
  type MemoryToolDefinition,
  type MemoryToolDefinitions,
  type MemoryToolName,
  type MemoryToolOptions,
  memoryToolDefinitions,
} from './tools/memory-tools.ts';
export {
  type CorrectInput,
  correctInputSchema,
  type ForgetInput,
  forgetInputSchema,
  type RecallInput,
  type RememberInput,
  recallInputSchema,
  rememberInputSchema,
} from './tools/tool-inputs.ts';
export {
  type CorrectOutput,
  type FactView,
  type ForgetOutput,
  factView,
  type RecalledItemView,
  type RecallOutput,
  type RememberOutput,
  recalledItemView,
} from './tools/tool-outputs.ts';
export { MAX_EPOCH_MS } from './validation/epoch-time.ts';
export { type ExtractiveSummarizerOptions, extractiveSummarizer } from './working/extractive-summarizer.ts';
export { type ModelSummarizerOptions, modelSummarizer } from './working/model-summarizer.ts';
