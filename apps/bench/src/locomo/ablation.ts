import { defaultRecallTuning, type RecallTuning } from '@strata-memory/core/internals';
import { InvalidArgumentError } from 'commander';

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

/**
 * Parses `bench locomo --set contextTurns=3,vectorWeight=1` into recall tuning: each name is a
 * `RecallTuning` field, each value of that field's type (a number, `true`/`false`, or a word for
 * `packing`). For measuring one knob against the defaults on both halves of the split.
 */
export function tuningSettings(value: string): Partial<RecallTuning> {
  const out: Record<string, unknown> = {};
  for (const part of value.split(',').map((p) => p.trim())) {
    const [name = '', raw = '', ...extra] = part.split('=').map((p) => p.trim());
    if (!Object.hasOwn(defaultRecallTuning, name) || extra.length > 0) {
      throw new InvalidArgumentError(
        `unknown setting "${part}"; use name=value with a name from ${Object.keys(defaultRecallTuning).join(', ')}`,
      );
    }
    const current = defaultRecallTuning[name as keyof RecallTuning];
    const parsed =
      typeof current === 'number'
        ? raw !== '' && Number.isFinite(Number(raw))
          ? Number(raw)
          : undefined
        : typeof current === 'boolean'
          ? raw === 'true'
            ? true
            : raw === 'false'
              ? false
              : undefined
          : raw === 'density' || raw === 'rank'
            ? raw
            : undefined;
    if (parsed === undefined) {
      throw new InvalidArgumentError(
        `${name} takes a ${typeof current} like ${String(current)}, got "${raw}"`,
      );
    }
    out[name] = parsed;
  }
  return out as Partial<RecallTuning>;
}
