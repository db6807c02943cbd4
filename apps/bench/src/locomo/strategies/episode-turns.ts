import type { EpisodeRecord } from '@strata-memory/core';

/** The dataset turns an episode came from: the message it was observed from, when that is a turn. */
export function episodeTurns(episode: EpisodeRecord, knownTurns: ReadonlySet<string>): string[] {
  const id = episode.provenance.messageId;
  return id !== undefined && knownTurns.has(id) ? [id] : [];
}
