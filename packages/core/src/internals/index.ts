/**
 * `@strata-memory/core/internals`: engine parts that tools, benchmarks and drivers' tests reach
 * into: the recall pipeline and its tuning, scoring, policy resolution, explanation formatting and
 * snapshot encoding. No stability promise: these change with the engine.
 */

export { accessLevelOf, resolvePolicy } from '../engine/policy.ts';
export { estimateImportance } from '../episodic/importance.ts';
export { RULES_EXTRACTOR_ID } from '../extract/rules-extractor.ts';
export { type OutdatedFact, outdatedFactsOf } from '../facts/outdated-episodes.ts';
export { formatExplanation } from '../recall/explanation.ts';
export {
  createRecall,
  defaultRecallTuning,
  type RecallDeps,
  type RecallStage,
  type RecallTuning,
} from '../recall/recall.ts';
export { accessWeight, cosine, recencyWeight, retentionValue } from '../scoring/scoring.ts';
export { countSnapshot, type EncodedVector } from '../snapshot/snapshot-schema.ts';
export { sortKeys } from '../snapshot/sort-keys.ts';
export { decodeVector, encodeVector } from '../snapshot/vector-encoding.ts';
