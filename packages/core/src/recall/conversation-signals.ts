import type { ItemScores } from '../memory/types.ts';
import type { Scope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import type { EpisodeRecord } from '../store/records.ts';
import type { RankedList } from './fusion.ts';
import { accessWeight } from './scoring.ts';
import { contentWords, words } from './terms.ts';
import type { RecallTuning } from './tuning.ts';

/**
 * Signals a conversation gives beyond the words of one turn: who is speaking, which turns sit
 * next to each other, and which stretches of talk hold several relevant turns.
 */

/** An episode candidate while the retrieval pipeline scores it. */
export interface Scored {
  id: string;
  episode: EpisodeRecord;
  relevance: number;
  scores: ItemScores;
  reasons: string[];
  terms?: Set<string>;
}

/**
 * Conversation stretches as evidence: candidates are grouped into stretches (same thread, each
 * turn within `contextGapMs` of the previous candidate); a stretch's strength is the sum of its
 * candidates' scores beyond its best one, relative to the strongest stretch, and lifts every
 * candidate in it by up to `sessionWeight`. A lone keyword hit in an unrelated chat gains nothing.
 */
export function applySessionPrior(scored: Scored[], tuning: RecallTuning): void {
  const byTime = [...scored].sort(
    (a, b) => a.episode.occurredAt - b.episode.occurredAt || a.id.localeCompare(b.id),
  );
  const groups: Scored[][] = [];
  for (const s of byTime) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    if (
      group &&
      last &&
      s.episode.occurredAt - last.episode.occurredAt <= tuning.contextGapMs &&
      s.episode.provenance.threadId === last.episode.provenance.threadId
    ) {
      group.push(s);
    } else groups.push([s]);
  }
  const support = groups.map((g) => {
    const total = g.reduce((sum, s) => sum + s.relevance, 0);
    return total - Math.max(...g.map((s) => s.relevance));
  });
  const top = Math.max(0, ...support);
  if (top <= 0) return;
  groups.forEach((group, i) => {
    const lift = 1 + (tuning.sessionWeight * support[i]!) / top;
    for (const s of group) {
      s.relevance *= lift;
      if (lift >= 1.05) s.reasons.push(`part of a relevant conversation stretch (×${lift.toFixed(2)})`);
    }
  });
}

/**
 * A speaker's name in the query ("What did Caroline paint?") is better used to prefer that
 * speaker's turns than as a keyword: as a keyword it favours every turn that greets or addresses
 * her. When the candidates show the query names a speaker, the keyword lists are replaced by a
 * search without the name (unless nothing else is left to search for).
 */
export async function searchWithoutSpeakerNames(args: {
  store: Store;
  scope: Scope;
  accessLevel: number;
  query: string;
  pool: number;
  since: { since: number; until: number } | undefined;
  lists: RankedList[];
  episodes: Map<string, EpisodeRecord>;
  speakers: (speaker: string | undefined) => boolean;
}): Promise<void> {
  const named = new Set<string>();
  for (const episode of args.episodes.values()) {
    if (episode.speaker && args.speakers(episode.speaker))
      for (const w of words(episode.speaker)) named.add(w);
  }
  if (named.size === 0) return;
  const rest = args.query
    .split(/(\s+)/)
    .filter((token) => !words(token).some((w) => named.has(w)))
    .join('')
    .trim();
  if (contentWords(rest).length === 0) return;
  for (const list of args.lists) {
    if (!list.name.startsWith('keyword')) continue;
    const window = list.name.includes('@') ? args.since : undefined;
    const results = await args.store.episodes.searchKeyword({
      scope: args.scope,
      accessLevel: args.accessLevel,
      query: rest,
      limit: args.pool,
      ...(window ?? {}),
    });
    for (const r of results) args.episodes.set(r.episode.id, r.episode);
    list.items = results.map((r) => ({ id: r.episode.id, score: r.score }));
  }
}

/**
 * Conversation context: the turns right before and after a strong hit (same thread, within
 * `contextGapMs`) often hold the answer to what the hit asked or the event it refers to. They
 * join the candidates at the hit's score times `contextDecay` per turn of distance, or keep their
 * own score when that is higher.
 */
export async function addNeighbours(args: {
  store: Store;
  scope: Scope;
  accessLevel: number;
  tuning: RecallTuning;
  scored: Scored[];
}): Promise<void> {
  const { store, scope, accessLevel, tuning, scored } = args;
  const byId = new Map(scored.map((s) => [s.id, s]));
  const hits = scored.slice(0, tuning.contextHits);
  const slack = 20;
  const lists = await Promise.all(
    hits.map(async (hit) => {
      const at = hit.episode.occurredAt;
      const common = { scope, accessLevel, limit: tuning.contextTurns + slack };
      const [before, after] = await Promise.all([
        store.episodes.list({
          ...common,
          since: Math.max(0, at - tuning.contextGapMs),
          until: at,
          order: 'desc',
        }),
        store.episodes.list({ ...common, since: at, until: at + tuning.contextGapMs, order: 'asc' }),
      ]);
      return { hit, sides: [before.items, after.items] };
    }),
  );
  for (const { hit, sides } of lists) {
    for (const side of sides) {
      const index = side.findIndex((e) => e.id === hit.id);
      if (index < 0) continue;
      const thread = hit.episode.provenance.threadId;
      side.slice(index + 1, index + 1 + tuning.contextTurns).forEach((episode, offset) => {
        if (thread !== undefined && episode.provenance.threadId !== thread) return;
        const score = hit.relevance * tuning.contextDecay ** (offset + 1);
        const held = byId.get(episode.id);
        if (held) {
          if (score > held.relevance) {
            held.relevance = score;
            held.reasons.push(`next to ${hit.id}`);
          }
          return;
        }
        const entry: Scored = {
          id: episode.id,
          episode,
          relevance: score,
          scores: {
            recency: 0,
            importance: round(episode.importance),
            access: round(accessWeight(episode.accessCount)),
            final: round(score),
          },
          reasons: [`conversation context: next to ${hit.id}`],
        };
        byId.set(episode.id, entry);
        scored.push(entry);
      });
    }
  }
}

/** True for a speaker whose name (or one of its words) appears in the query. */
export function speakerMatcher(query: string): (speaker: string | undefined) => boolean {
  const queryWords = new Set(words(query));
  const cache = new Map<string, boolean>();
  return (speaker) => {
    if (!speaker) return false;
    let hit = cache.get(speaker);
    if (hit === undefined) {
      hit = words(speaker).some((w) => w.length >= 3 && queryWords.has(w));
      cache.set(speaker, hit);
    }
    return hit;
  };
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
