/**
 * `@strata-memory/core`: what an application uses. `createMemory` and its options and result types,
 * the ports an application configures with their built-in implementations, the in-memory store,
 * scopes, errors and limits. Drivers import `@strata-memory/core/store`, framework adapters
 * `@strata-memory/core/integration`; engine internals are in `@strata-memory/core/internals`.
 */
export { type HashEmbedderOptions, hashEmbedder } from './embed/hash-embedder.ts';
export { measureUnrelatedSimilarity, type SimilarityCalibration } from './embed/unrelated-similarity.ts';
export { defaultPolicy } from './engine/policy.ts';
export type * from './engine/types.ts';
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
export { type RulesExtractorOptions, rulesExtractor } from './extract/rules-extractor.ts';
export { createMemory } from './memory/create-memory.ts';
export type { MemoryErrorEvent, MemoryErrorReporter, RecallErrorPolicy } from './memory/failure-policy.ts';
export * from './ports/ports.ts';
export { MAX_ID_BYTES, parseScope, SCOPE_LEVELS, type Scope, type ScopeLevel } from './scope/scope.ts';
export type { ExportOptions, SnapshotProgress } from './snapshot/export-snapshot.ts';
export { type ImportOptions, parseSnapshot } from './snapshot/import-snapshot.ts';
export {
  type MemorySnapshot,
  type ScopeSnapshot,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type SnapshotCounts,
} from './snapshot/snapshot-schema.ts';
export type * from './store/contract.ts';
export { LIMITS } from './store/limits.ts';
export { type MemoryStoreOptions, memoryStore } from './store/memory/memory-store.ts';
export type * from './store/records.ts';
export {
  countScope,
  type ScopeCounts,
  type ScopeInventory,
  type ScopeInventoryEntry,
  scopeInventory,
} from './store/scope-inventory.ts';
export { defaultTokenizer } from './tokenizer/tokenizer.ts';
export { MAX_EPOCH_MS } from './validation/epoch-time.ts';
export { type ExtractiveSummarizerOptions, extractiveSummarizer } from './working/extractive-summarizer.ts';
export { type ModelSummarizerOptions, modelSummarizer } from './working/model-summarizer.ts';
