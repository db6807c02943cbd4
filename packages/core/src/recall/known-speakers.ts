import { SCOPE_LEVELS, type Scope } from '../scope/scope.ts';
import type { EpisodeRecord } from '../store/records.ts';
import { words } from './terms.ts';

/** Readers remembered, and speakers per reader, before the oldest are forgotten. */
const MAX_SCOPES = 1_000;
const MAX_SPEAKERS = 1_000;

/**
 * Speakers seen among a reader's episode candidates. Keyword search drops a speaker's name from
 * the query once the candidates show the query names a speaker (see `searchWithoutSpeakerNames`);
 * a later recall at the same scope whose query names a speaker already seen searches without the
 * name from the start, instead of searching twice. Kept per exact scope, so one reader's speakers
 * never shape another's search.
 */
export class KnownSpeakers {
  readonly #byScope = new Map<string, Set<string>>();

  /** Name words of known speakers the query names (by `named`); empty when none. */
  namedIn(scope: Scope, named: (speaker: string) => boolean): Set<string> {
    const out = new Set<string>();
    for (const speaker of this.#byScope.get(scopeKey(scope)) ?? []) {
      if (named(speaker)) for (const w of words(speaker)) out.add(w);
    }
    return out;
  }

  learn(scope: Scope, episodes: Iterable<EpisodeRecord>): void {
    const key = scopeKey(scope);
    let speakers = this.#byScope.get(key);
    if (!speakers) {
      if (this.#byScope.size >= MAX_SCOPES) this.#byScope.delete(this.#byScope.keys().next().value!);
      speakers = new Set();
      this.#byScope.set(key, speakers);
    }
    for (const episode of episodes) {
      if (episode.speaker && speakers.size < MAX_SPEAKERS) speakers.add(episode.speaker);
    }
  }
}

function scopeKey(scope: Scope): string {
  return JSON.stringify(SCOPE_LEVELS.map((level) => scope[level] ?? null));
}

/** The query without the tokens that hold one of `names`' words. */
export function queryWithout(query: string, names: ReadonlySet<string>): string {
  return query
    .split(/(\s+)/)
    .filter((token) => !words(token).some((w) => names.has(w)))
    .join('')
    .trim();
}
