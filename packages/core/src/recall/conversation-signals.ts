import type { ItemScores } from '../engine/types.ts';
import type { Scope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import type { EpisodeRecord } from '../store/records.ts';
import { contentWords, words } from '../text/terms.ts';
import { MAX_EPOCH_MS } from '../validation/epoch-time.ts';
import type { EpisodePrior } from './episode-priors.ts';
import type { RankedList } from './fusion.ts';
import type { RecallTuning } from './tuning.ts';

/**
 * Signals a conversation gives beyond the words of one turn: who is speaking, which turns sit
 * next to each other, and which stretches of talk hold several relevant turns.
 */

/** What an episode held on its own before a neighbouring hit's match carried over to it. */
export interface CarriedRelevance {
  /** The hit whose match it carries. */
  hitId: string;
  /** Its relevance without the hit's (0 when it joined only as the hit's neighbour). */
  ownRelevance: number;
  /** Whether it matches the query itself (see `Scored.matched`). */
  ownMatched: boolean;
}

/** An episode candidate while the retrieval pipeline scores it. */
export interface Scored {
  id: string;
  episode: EpisodeRecord;
  relevance: number;
  /** The episode's prior (see `episode-priors.ts`), a factor of `relevance`. */
  prior: number;
  scores: ItemScores;
  reasons: string[];
  /**
   * The episode matches the query itself (see `Embedder.unrelatedSimilarity`), or sits next to one
   * that does; false when its only link to the query is a vector similarity unrelated text reaches.
   */
  matched: boolean;
  /** Set when the episode's relevance is carried from a neighbouring hit rather than its own. */
  carried?: CarriedRelevance;
  /** Filled on first use by MMR: the episode's terms, and its embedding scaled to unit length. */
  terms?: Set<string>;
  unit?: Float64Array;
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
 * search without the name (unless nothing else is left to search for, or the query searched holds
 * no such name any more). Returns the keyword query it settled on.
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
}): Promise<string> {
  const named = new Set<string>();
  for (const episode of args.episodes.values()) {
    if (episode.speaker && args.speakers(episode.speaker))
      for (const w of words(episode.speaker)) named.add(w);
  }
  if (named.size === 0) return args.query;
  const rest = queryWithout(args.query, named);
  if (rest === args.query) return args.query;
  if (contentWords(rest).length === 0) return args.query;
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
  return rest;
}

/** Extra turns read on each side of a hit when other threads' turns interleave with its own. */
const INTERLEAVED_READ = 20;

/**
 * Conversation context: the turns right before and after a strong hit (same thread, within
 * `contextGapMs`) often hold the answer to what the hit asked or the event it refers to. They
 * join the candidates at the hit's score times `contextDecay` per turn of distance, or keep their
 * own score when that is higher.
 *
 * Each hit reads only the `contextTurns` turns on either side (every episode read comes with its
 * embedding, so reading whole stretches costs more than the extra round trips); a side where turns
 * of other threads interleave with the hit's is read again, wider, once.
 */
export async function addNeighbours(args: {
  store: Store;
  scope: Scope;
  accessLevel: number;
  tuning: RecallTuning;
  scored: Scored[];
  /** The prior of an episode that joins as a neighbour (its own, not the hit's). */
  priorOf: (episode: EpisodeRecord) => EpisodePrior;
}): Promise<void> {
  const { store, scope, accessLevel, tuning, scored } = args;
  const gap = tuning.contextGapMs;
  const byId = new Map(scored.map((s) => [s.id, s]));
  const base = new Map(scored.map((s) => [s.id, s.relevance / s.prior]));
  // Hits: the best candidates by relevance, and by match alone (a question one speaker asks
  // matches the query's words best, while the answer the query is after comes from the other).
  const byMatch = [...scored].sort((a, b) => b.relevance / b.prior - a.relevance / a.prior);
  const hits = [
    ...new Set([...scored.slice(0, tuning.contextHits), ...byMatch.slice(0, tuning.contextMatchHits)]),
  ];
  const reads = await Promise.all(hits.map(async (hit) => ({ hit, around: await readAround(hit) })));
  for (const { hit, around } of reads) {
    const thread = hit.episode.provenance.threadId;
    const turns = around.filter(
      (e) => thread === undefined || e.provenance.threadId === thread || e.id === hit.id,
    );
    const index = turns.findIndex((e) => e.id === hit.id);
    if (index < 0) continue;
    for (const direction of [-1, 1]) {
      for (let offset = 1; offset <= tuning.contextTurns; offset++) {
        const episode = turns[index + direction * offset];
        if (!episode || Math.abs(episode.occurredAt - hit.episode.occurredAt) > gap) break;
        // The hit's match carries over, decayed by distance; the neighbour's own prior applies.
        const held = byId.get(episode.id);
        const carried = base.get(hit.id)! * tuning.contextDecay ** offset;
        if (held) {
          const score = carried * held.prior;
          const own: CarriedRelevance = held.carried ?? {
            hitId: hit.id,
            ownRelevance: held.relevance,
            ownMatched: held.matched,
          };
          if (tuning.contextSum > 0) {
            held.relevance += tuning.contextSum * score;
            held.reasons.push(`next to ${hit.id}`);
            held.carried = { ...own, hitId: hit.id };
          } else if (score > held.relevance) {
            held.relevance = score;
            held.reasons.push(`next to ${hit.id}`);
            held.carried = { ...own, hitId: hit.id };
          }
          held.matched ||= hit.matched;
          continue;
        }
        const prior = args.priorOf(episode);
        const score = carried * prior.factor;
        const entry: Scored = {
          id: episode.id,
          episode,
          relevance: score,
          prior: prior.factor,
          scores: {
            recency: round(prior.recency),
            importance: round(episode.importance),
            access: round(prior.access),
            ...(prior.time === undefined ? {} : { time: round(prior.time) }),
            final: round(score),
          },
          reasons: [`conversation context: next to ${hit.id}`, ...prior.reasons],
          matched: hit.matched,
          carried: { hitId: hit.id, ownRelevance: 0, ownMatched: false },
        };
        byId.set(episode.id, entry);
        scored.push(entry);
      }
    }
  }

  /** The turns around one hit, in time order (the hit included). */
  async function readAround(hit: Scored): Promise<EpisodeRecord[]> {
    // The hit, and one turn more than `contextTurns` (see `readSide`).
    const narrow = tuning.contextTurns + 2;
    const wide = narrow + INTERLEAVED_READ;
    const [before, after] = await Promise.all(
      (['desc', 'asc'] as const).map(async (order) => {
        const side = await readSide(hit, order, narrow);
        return side.complete ? side.items : (await readSide(hit, order, wide)).items;
      }),
    );
    const seen = new Set<string>();
    return [...before!.reverse(), ...after!].filter((e) => !seen.has(e.id) && seen.add(e.id));
  }

  /**
   * Up to `limit` episodes on one side of a hit (the hit included), within the gap, nearest
   * first. `complete` when they hold every turn of the hit's thread that `contextTurns` can reach
   * on that side: that many of its turns, or nothing left unread, or the last two read belong to
   * other threads with none of its turns between them and the hit's last one (its thread ended
   * there and another's followed: a new conversation, where reading on would only find more of
   * it). Its turns with other threads' in between mean threads interleave, and the caller reads
   * that side again, wider.
   */
  async function readSide(
    hit: Scored,
    order: 'asc' | 'desc',
    limit: number,
  ): Promise<{ items: EpisodeRecord[]; complete: boolean }> {
    const at = hit.episode.occurredAt;
    const page = await store.episodes.list({
      scope,
      accessLevel,
      limit,
      order,
      ...(order === 'desc'
        ? { since: Math.max(0, at - gap), until: at }
        : { since: at, until: Math.min(MAX_EPOCH_MS, at + gap) }),
    });
    const thread = hit.episode.provenance.threadId;
    const ownTurn = (e: EpisodeRecord) => thread === undefined || e.provenance.threadId === thread;
    const past = page.items.filter((e) => e.id !== hit.id);
    const own = past.filter(ownTurn).length;
    const complete =
      page.nextCursor === undefined || own >= tuning.contextTurns || threadEnded(past, ownTurn);
    return { items: page.items, complete };
  }
}

/**
 * The hit's thread ended among `past` (the turns read past the hit, nearest first): other
 * threads' turns follow its last one, at least two of them, and none of its own comes after.
 */
function threadEnded(past: readonly EpisodeRecord[], ownTurn: (e: EpisodeRecord) => boolean): boolean {
  const firstOther = past.findIndex((e) => !ownTurn(e));
  return firstOther >= 0 && past.length - firstOther >= 2 && !past.slice(firstOther).some(ownTurn);
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

/**
 * The speakers a query asks about as speakers: "What did Jon say about Gina's store?" is after
 * Jon's turns, not Gina's. A name used only as an owner ("Gina's", "Tim and John's") counts when
 * no candidate's speaker is named otherwise ("What do Melanie's kids like?").
 */
export function askedSpeakers(
  query: string,
  /** `speakerMatcher(query)`: every speaker the query names. */
  any: (speaker: string | undefined) => boolean,
  candidates: Iterable<EpisodeRecord>,
): (speaker: string | undefined) => boolean {
  if (!OWNER.test(query)) return any;
  const plain = speakerMatcher(query.replace(OWNERS, ' '));
  for (const episode of candidates) if (plain(episode.speaker)) return plain;
  return any;
}

/** Owners: "Gina's", "Tim and John's" (each name of a pair), either apostrophe. */
const OWNERS = /[\p{L}\p{N}]+(?:(?:\s*[,&]\s*|\s+and\s+)[\p{L}\p{N}]+)*['’]s\b/gu;
const OWNER = /['’]s\b/u;

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/** The query without the tokens that hold one of `names`' words. */
function queryWithout(query: string, names: ReadonlySet<string>): string {
  return query
    .split(/(\s+)/)
    .filter((token) => !words(token).some((w) => names.has(w)))
    .join('')
    .trim();
}
