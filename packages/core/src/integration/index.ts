/**
 * `@strata-memory/core/integration`: the framework-neutral pieces a framework adapter is built
 * from, so every adapter behaves the same: the memory tools and their schemas, request scopes,
 * the failure policy, shared option fields, model bridge errors and embedding checks.
 */

export { FACT_INDEX_KEY } from '../engine/metadata-keys.ts';
export { modelFailure, modelOutputInvalid } from '../extract/model-errors.ts';
export {
  INDEXED_FACT_KEY,
  type IndexedFact,
  indexEpisodeIdsOf,
  indexedFactOf,
} from '../facts/fact-index.ts';
export { unitVector, unitVectors } from '../memory/embedding-vectors.ts';
export * from '../memory/failure-policy.ts';
export {
  budgetSchema,
  integrationOptionFields,
  layerSchema,
  memoryInstanceSchema,
  principalSchema,
  type RecallSettings,
  recallOptionsFor,
  recallSettingsSchema,
} from '../memory/integration-options.ts';
export { parseBoundScope, resolveRequestScope } from '../memory/request-scope.ts';
export { idSchema, sameScope, scopeDepth, scopeKey, scopeSchema } from '../scope/scope.ts';
export { parseArgs } from '../store/define-store.ts';
export {
  DEFAULT_TOOL_RECALL_BUDGET,
  MEMORY_TOOL_NAMES,
  type MemoryToolDefinition,
  type MemoryToolDefinitions,
  type MemoryToolName,
  type MemoryToolOptions,
  memoryToolDefinitions,
} from '../tools/memory-tools.ts';
export {
  type CorrectInput,
  correctInputSchema,
  type ForgetInput,
  forgetInputSchema,
  type RecallInput,
  type RememberInput,
  recallInputSchema,
  rememberInputSchema,
} from '../tools/tool-inputs.ts';
export {
  type CorrectOutput,
  type FactView,
  type ForgetOutput,
  factView,
  type RecalledItemView,
  type RecallOutput,
  type RememberOutput,
  recalledItemView,
} from '../tools/tool-outputs.ts';
