import type { RecallTuning } from '@strata-memory/core/internals';

/**
 * Recall stages `bench locomo --ablate` can switch off, each as the tuning that turns it off
 * (the rest of the pipeline keeps its defaults). A stage off for one run shows what it adds.
 */
export const ABLATIONS = {
  keyword: { keyword: false },
  vector: { vector: false },
  'complete-vector-scores': { completeVectorScores: false },
  'time-windows': { timeWindows: false },
  'question-penalty': { questionPenalty: 0 },
  'speaker-boost': { speakerBoost: 0 },
  'speaker-names-out-of-keywords': { speakerNamesOutOfKeywords: false },
  'owner-names': { ownerNames: false },
  coverage: { coverageWeight: 0 },
  'coverage-idf': { coverageIdf: false },
  proximity: { proximityWeight: 0 },
  session: { sessionWeight: 0 },
  neighbours: { contextHits: 0, contextMatchHits: 0 },
  recency: { recencyWeight: 0 },
  importance: { importanceWeight: 0 },
  access: { accessWeight: 0 },
  mmr: { mmr: false },
} as const satisfies Record<string, Partial<RecallTuning>>;

export type AblationName = keyof typeof ABLATIONS;
export const ABLATION_NAMES = Object.keys(ABLATIONS) as AblationName[];

/** The tuning with every named stage off. */
export function ablatedTuning(names: readonly AblationName[]): Partial<RecallTuning> {
  return Object.assign({}, ...names.map((name) => ABLATIONS[name]));
}
