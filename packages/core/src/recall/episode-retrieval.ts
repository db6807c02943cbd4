import type { ExplainEntry, ItemScores, MemoryPolicy } from '../memory/types.ts';
import type { Embedder } from '../ports/ports.ts';
import type { Scope } from '../scope/scope.ts';
import type { ScoredEpisode, Store } from '../store/contract.ts';
import type { EpisodeRecord } from '../store/records.ts';
import {
  addNeighbours,
  applySessionPrior,
  type Scored,
  searchWithoutSpeakerNames,
  speakerMatcher,
} from './conversation-signals.ts';
import { fuse, type RankedList } from './fusion.ts';
import { mmrSelect } from './mmr.ts';
import { escapeMemoryText, formatDay } from './render-context.ts';
import { accessWeight, cosine, recencyWeight } from './scoring.ts';
import { contentWords, termOverlap } from './terms.ts';
import { parseTimeWindow, type TimeWindow, timeMatch } from './time-window.ts';
import type { RecallTuning } from './tuning.ts';

export interface EpisodeCandidate {
  episode: EpisodeRecord;
  /** Rendered line (escaped). */
  text: string;
  scores: ItemScores;
  value: number;
  reason: string;
}

export interface EpisodeRetrieval {
  /** After fusion, re-scoring and MMR, best first. */
  selected: EpisodeCandidate[];
  /** Candidates dropped before packing (near-duplicates, below the cut), with why. */
  dropped: ExplainEntry[];
  /** Notes on the retrieval itself (a failed embedder, a skipped search). */
  notes: ExplainEntry[];
  window?: TimeWindow;
}

/** `[2023-05-08] Caroline: I went to the support group.` */
export function renderEpisode(episode: EpisodeRecord): string {
  const who = episode.speaker ?? episode.role;
  return escapeMemoryText(`[${formatDay(episode.occurredAt)}] ${who ? `${who}: ` : ''}${episode.text}`);
}

/**
 * Hybrid episodic retrieval: keyword (BM25) and vector candidates, plus candidates restricted to
 * the time window the query names, fused; then recency decay, importance, access frequency, the
 * time-window match and a named speaker re-weight the fused relevance; then MMR removes
 * near-duplicates and redundancy. Works keyword-only without an embedder, and falls back to
 * keyword-only (noted) when the embedder throws.
 */
export async function retrieveEpisodes(args: {
  store: Store;
  embedder?: Embedder;
  scope: Scope;
  accessLevel: number;
  query: string;
  now: number;
  policy: Readonly<MemoryPolicy>;
  tuning: RecallTuning;
  maxEpisodes: number;
}): Promise<EpisodeRetrieval> {
  const { store, scope, accessLevel, query, tuning } = args;
  const notes: ExplainEntry[] = [];
  const window = tuning.timeWindows ? parseTimeWindow(query, args.now) : undefined;
  const pool = tuning.candidatePool;
  const searchable = query.trim().length > 0;
  const lists: RankedList[] = [];
  const episodes = new Map<string, EpisodeRecord>();
  const addList = (name: string, weight: number, results: ScoredEpisode[]) => {
    for (const r of results) episodes.set(r.episode.id, r.episode);
    lists.push({ name, weight, items: results.map((r) => ({ id: r.episode.id, score: r.score })) });
  };
  const since = window ? { since: window.start, until: window.end - 1 } : undefined;

  if (tuning.keyword && searchable && store.capabilities.keywordSearch) {
    const base = { scope, accessLevel, query, limit: pool };
    addList('keyword', tuning.keywordWeight, await store.episodes.searchKeyword(base));
    if (since)
      addList(
        'keyword@window',
        tuning.keywordWeight,
        await store.episodes.searchKeyword({ ...base, ...since }),
      );
  } else if (tuning.keyword && !store.capabilities.keywordSearch) {
    notes.push(note('keyword-search', `the ${store.name} store has no keyword search`));
  }

  if (tuning.vector && searchable && args.embedder && store.capabilities.vectorSearch) {
    const vector = await embedQuery(args.embedder, query).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      notes.push(
        note('vector-search', `embedder "${args.embedder!.id}" failed (${message}); keyword search only`),
      );
      return undefined;
    });
    if (vector) {
      const base = { scope, accessLevel, vector, limit: pool };
      addList('vector', tuning.vectorWeight, await store.episodes.searchVector(base));
      if (since)
        addList(
          'vector@window',
          tuning.vectorWeight,
          await store.episodes.searchVector({ ...base, ...since }),
        );
    }
  } else if (tuning.vector && searchable && !args.embedder) {
    notes.push(note('vector-search', 'no embedder configured; keyword search only'));
  } else if (tuning.vector && searchable && !store.capabilities.vectorSearch) {
    notes.push(note('vector-search', `the ${store.name} store has no vector search; keyword search only`));
  }

  const speakers = speakerMatcher(query);
  if (tuning.speakerNamesOutOfKeywords && lists.some((l) => l.name.startsWith('keyword'))) {
    await searchWithoutSpeakerNames({
      store,
      scope,
      accessLevel,
      query,
      pool,
      since,
      lists,
      episodes,
      speakers,
    });
  }
  const queryTerms = new Set(contentWords(query));
  const fused = fuse(tuning.fusion, mergeWindowLists(lists), tuning.rrfK);
  const scored: Scored[] = [];
  for (const [id, f] of fused) {
    const episode = episodes.get(id)!;
    const recency = recencyWeight(episode.occurredAt, args.now, args.policy.recencyHalfLifeDays);
    const access = accessWeight(episode.accessCount);
    const time = window ? timeMatch(episode.occurredAt, window) : undefined;
    const reasons: string[] = [];
    reasons.push(`${Object.keys(f.ranks).join(' + ')} match`);
    let final =
      f.fused *
      (1 - tuning.recencyWeight + tuning.recencyWeight * recency) *
      (1 + tuning.importanceWeight * (episode.importance - 0.5) * 2) *
      (1 + tuning.accessWeight * access);
    if (time !== undefined && window) {
      final *= (1 + tuning.timeBoost * time) / (1 + tuning.timeBoost);
      if (time === 1) reasons.push(`boosted: time window "${window.label}"`);
    }
    if (tuning.coverageWeight > 0 && queryTerms.size > 0) {
      const terms = new Set(contentWords(episode.text));
      let held = 0;
      for (const t of queryTerms) if (terms.has(t)) held++;
      final *= 1 - tuning.coverageWeight + (tuning.coverageWeight * held) / queryTerms.size;
    }
    if (tuning.speakerBoost > 0 && speakers(episode.speaker)) {
      final *= 1 + tuning.speakerBoost;
      reasons.push(`speaker ${episode.speaker} named in the query`);
    }
    const scores: ItemScores = {
      fused: round(f.fused),
      recency: round(recency),
      importance: round(episode.importance),
      access: round(access),
      final: round(final),
    };
    if (f.scores.keyword !== undefined) scores.keyword = round(f.scores.keyword);
    if (f.scores.vector !== undefined) scores.vector = round(f.scores.vector);
    if (time !== undefined) scores.time = round(time);
    scored.push({ id, episode, relevance: final, scores, reasons });
  }
  if (tuning.sessionWeight > 0) applySessionPrior(scored, tuning);
  scored.sort((a, b) => b.relevance - a.relevance || a.id.localeCompare(b.id));
  if (tuning.contextHits > 0 && tuning.contextTurns > 0 && scored.length > 0) {
    await addNeighbours({ store, scope, accessLevel, tuning, scored });
    scored.sort((a, b) => b.relevance - a.relevance || a.id.localeCompare(b.id));
  }

  for (const s of scored) s.scores.final = round(s.relevance);

  const dropped: ExplainEntry[] = [];
  const limit = args.maxEpisodes;
  let ordered: Scored[];
  if (tuning.mmr) {
    const head = scored.slice(0, limit * 3);
    for (const s of scored.slice(limit * 3))
      dropped.push(droppedEntry(s, `ranked below the top ${limit * 3} after fusion`));
    const result = mmrSelect({
      items: head,
      lambda: tuning.mmrLambda,
      limit,
      duplicateSimilarity: args.policy.duplicateSimilarity,
      similarity: (a, b) => episodeSimilarity(a, b),
    });
    ordered = result.selected.map((s) => s.item);
    for (const d of result.duplicates) {
      dropped.push(droppedEntry(d.item, `near-duplicate of ${d.of} (similarity ${d.similarity.toFixed(2)})`));
    }
    for (const o of result.overflow) dropped.push(droppedEntry(o, `not among the ${limit} picked after MMR`));
  } else {
    ordered = scored.slice(0, limit);
    for (const s of scored.slice(limit))
      dropped.push(droppedEntry(s, `ranked below the top ${limit} after fusion`));
  }

  // Values follow the pick order, so packing and interleaving keep MMR's ranking.
  let ceiling = Number.POSITIVE_INFINITY;
  const selected = ordered.map((s) => {
    ceiling = Math.min(ceiling, s.relevance);
    return {
      episode: s.episode,
      text: renderEpisode(s.episode),
      scores: s.scores,
      value: ceiling,
      reason: s.reasons.join(', '),
    };
  });
  return { selected, dropped, notes, ...(window ? { window } : {}) };
}

/**
 * Window-restricted searches only add candidates: each is merged into the unrestricted list of the
 * same kind (an id keeps its best score), so an in-window episode that missed the global top-k
 * still competes, without counting the same match twice.
 */
function mergeWindowLists(lists: RankedList[]): RankedList[] {
  const merged = new Map<string, RankedList>();
  for (const list of lists) {
    const name = list.name.split('@')[0]!;
    const target = merged.get(name) ?? { name, weight: list.weight, items: [] };
    merged.set(name, target);
    const seen = new Map(target.items.map((i) => [i.id, i]));
    for (const item of list.items) {
      const held = seen.get(item.id);
      if (!held) {
        const copy = { ...item };
        target.items.push(copy);
        seen.set(item.id, copy);
      } else if (item.score > held.score) held.score = item.score;
    }
  }
  for (const list of merged.values()) list.items.sort((a, b) => b.score - a.score);
  return [...merged.values()];
}

async function embedQuery(embedder: Embedder, query: string): Promise<number[]> {
  const vectors = await embedder.embed({ texts: [query] });
  const vector = vectors?.[0];
  if (
    !Array.isArray(vector) ||
    vector.length !== embedder.dimensions ||
    vector.some((x) => !Number.isFinite(x))
  ) {
    throw new Error(`returned no valid ${embedder.dimensions}-dimension vector`);
  }
  return vector;
}

function episodeSimilarity(a: Scored, b: Scored): number {
  if (a.episode.contentHash === b.episode.contentHash) return 1;
  const ea = a.episode.embedding;
  const eb = b.episode.embedding;
  if (ea && eb && ea.length === eb.length) return cosine(ea, eb);
  a.terms ??= new Set(contentWords(a.episode.text));
  b.terms ??= new Set(contentWords(b.episode.text));
  return termOverlap(a.terms, b.terms);
}

function droppedEntry(s: Scored, reason: string): ExplainEntry {
  return { layer: 'episodes', id: s.id, tokens: 0, scores: s.scores, reason, included: false };
}

function note(id: string, reason: string): ExplainEntry {
  return { layer: 'episodes', id, tokens: 0, reason, included: false };
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}
