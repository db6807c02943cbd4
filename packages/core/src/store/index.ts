/**
 * `@strata-memory/core/store`: what a storage driver builds on. The `Store` contract and its
 * records, the argument schemas, `defineStore`, scope columns and filters, text normalisation,
 * the keyword analyzer and the in-memory reference store. Importing it loads none of the engine
 * (recall, layers, extraction), so a driver depends on the contract alone.
 */
export {
  conflict,
  type ErrorCategory,
  type ErrorCode,
  invalidInput,
  notFound,
  StrataError,
  type StrataErrorOptions,
  unsupported,
} from '../errors/strata-error.ts';
export * from '../scope/scope.ts';
export { cosine } from '../scoring/scoring.ts';
export * from './contract.ts';
export { defineStore, parseArgs, validationError } from './define-store.ts';
export { nextFactVersion } from './fact-versions.ts';
export { LIMITS } from './limits.ts';
export { analyzeText, ENGLISH_STOP_WORDS } from './memory/keyword-analyzer.ts';
export { type MemoryStoreOptions, memoryStore } from './memory/memory-store.ts';
export { contentHash, createId, normalizeName, normalizeText } from './normalize.ts';
export * from './records.ts';
export { reviewDedupeKey } from './review-key.ts';
export * as storeSchemas from './schemas.ts';
export {
  countScope,
  type ScopeCounts,
  type ScopeInventory,
  type ScopeInventoryEntry,
  scopeInventory,
} from './scope-inventory.ts';
