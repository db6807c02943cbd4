import type { MemoryPolicy } from '../engine/types.ts';
import { outdatedFactsOf } from '../facts/outdated-episodes.ts';
import { accessWeight, recencyWeight } from '../scoring/scoring.ts';
import type { EpisodeRecord } from '../store/records.ts';
import { questionShare } from '../text/terms.ts';
import { type TimeWindow, timeMatch } from './time-window.ts';
import type { RecallTuning } from './tuning.ts';

/**
 * What an episode is worth before asking how well it matches the query: recency decay,
 * importance, access frequency, the time window the query names, whether its speaker is the one
 * the query asks about, whether it states a superseded fact value, and how much of it only asks.
 * One multiplier, so a neighbouring turn that joins the candidates gets its own prior, not the
 * hit's.
 */
export interface EpisodePrior {
  factor: number;
  recency: number;
  access: number;
  /** How well its time matches the query's window (absent without one). */
  time?: number;
  reasons: string[];
}

export interface PriorContext {
  now: number;
  policy: Pick<MemoryPolicy, 'recencyHalfLifeDays'>;
  tuning: RecallTuning;
  window?: TimeWindow;
  /** True for a speaker the query names. */
  speakers: (speaker: string | undefined) => boolean;
}

export function episodePrior(episode: EpisodeRecord, ctx: PriorContext): EpisodePrior {
  const { tuning, window } = ctx;
  const recency = recencyWeight(episode.occurredAt, ctx.now, ctx.policy.recencyHalfLifeDays);
  const access = accessWeight(episode.accessCount);
  const reasons: string[] = [];
  let factor =
    (1 - tuning.recencyWeight + tuning.recencyWeight * recency) *
    (1 + tuning.importanceWeight * (episode.importance - 0.5) * 2) *
    (1 + tuning.accessWeight * access);
  let time: number | undefined;
  if (window) {
    time = timeMatch(episode.occurredAt, window);
    factor *= (1 + tuning.timeBoost * time) / (1 + tuning.timeBoost);
    if (time === 1) reasons.push(`boosted: time window "${window.label}"`);
  }
  if (tuning.outdatedPenalty > 0 && outdatedFactsOf(episode).length > 0) {
    factor *= 1 - tuning.outdatedPenalty;
    reasons.push('states a fact value that was since superseded');
  }
  if (tuning.questionPenalty > 0) {
    const asked = questionShare(episode.text);
    if (asked > 0) {
      factor *= 1 - tuning.questionPenalty * asked;
      if (asked >= 0.5) reasons.push('mostly a question');
    }
  }
  if (tuning.speakerBoost > 0 && ctx.speakers(episode.speaker)) {
    factor *= 1 + tuning.speakerBoost;
    reasons.push(`speaker ${episode.speaker} named in the query`);
  }
  return { factor, recency, access, ...(time === undefined ? {} : { time }), reasons };
}
