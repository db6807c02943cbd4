export { type HashEmbedderOptions, hashEmbedder } from './embed/hash-embedder.ts';
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
export { accessLevelOf, defaultPolicy, resolvePolicy } from './memory/policy.ts';
export type * from './memory/types.ts';
export * from './ports/ports.ts';
export { accessWeight, cosine, recencyWeight, retentionValue } from './recall/scoring.ts';
export * from './scope/scope.ts';
export * from './store/contract.ts';
export { defineStore, parseArgs, validationError } from './store/define-store.ts';
export { LIMITS } from './store/limits.ts';
export { contentHash, createId, normalizeName, normalizeText } from './store/normalize.ts';
export * from './store/records.ts';
export * as storeSchemas from './store/schemas.ts';
