import type { ExplainEntry, ItemScores, MemoryPolicy } from '../engine/types.ts';
import { type OutdatedFact, outdatedFactsOf } from '../facts/outdated-episodes.ts';
import type { Embedder } from '../ports/ports.ts';
import type { Scope } from '../scope/scope.ts';
import { cosine, dotProduct, unitVector } from '../scoring/scoring.ts';
import type { ScoredEpisode, Store } from '../store/contract.ts';
import type { EpisodeRecord } from '../store/records.ts';
import { escapeMemoryText, formatDay } from '../text/render-context.ts';
import { adjacentPairs, contentWords, termOverlap, termRarity, termsOf } from '../text/terms.ts';
import { MAX_EPOCH_MS } from '../validation/epoch-time.ts';
import {
  addNeighbours,
  applySessionPrior,
  askedSpeakers,
  type CarriedRelevance,
  type Scored,
  searchWithoutSpeakerNames,
  speakerMatcher,
} from './conversation-signals.ts';
import { episodePrior, type PriorContext } from './episode-priors.ts';
import { type RankedList, weightedFusion } from './fusion.ts';
import { mmrSelect } from './mmr.ts';
import type { QueryVectors } from './query-vectors.ts';
import type { RecallStage, StageTimer } from './stage-timer.ts';
import { parseTimeWindow, type TimeWindow } from './time-window.ts';
import type { RecallTuning } from './tuning.ts';
import { withVerbForms } from './verb-forms.ts';

export interface EpisodeCandidate {
  episode: EpisodeRecord;
  /** Rendered line (escaped). */
  text: string;
  scores: ItemScores;
  value: number;
  reason: string;
  /**
   * It shares a keyword with the query, lies in the time window the query names, has a vector
   * similarity above what unrelated text reaches (`Embedder.unrelatedSimilarity`), or is next to
   * an episode that does. The relevance bar lets no other episode in.
   */
  matched: boolean;
  /** Set when its value is carried from a neighbouring hit (see `addNeighbours`). */
  carried?: CarriedRelevance;
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

/**
 * `[2023-05-08] Caroline: I went to the support group.` An episode that states a fact value that
 * was since superseded carries a caveat naming the current value:
 * `[2026-03-02] Maria: Supplier X's lead time is 45 days. (outdated: supplier x · lead time is now
 * 30 days, corrected 2026-03-09)`.
 */
export function renderEpisode(episode: EpisodeRecord): string {
  const who = episode.speaker ?? episode.role;
  const line = `[${formatDay(episode.occurredAt)}] ${who ? `${who}: ` : ''}${episode.text}`;
  const outdated = outdatedFactsOf(episode);
  return escapeMemoryText(outdated.length > 0 ? `${line} (${outdatedCaveat(outdated)})` : line);
}

/** `outdated: supplier x · lead time is now 30 days, corrected 2026-03-09` (one clause per key). */
function outdatedCaveat(markers: OutdatedFact[]): string {
  const latest = new Map<string, OutdatedFact>();
  for (const m of markers) latest.set(JSON.stringify([m.entityType, m.entityId, m.key]), m);
  const clauses = [...latest.values()].map((m) => {
    const entity = m.entityType === 'entity' ? m.entityId : `${m.entityType} ${m.entityId}`;
    const value = typeof m.currentValue === 'string' ? m.currentValue : JSON.stringify(m.currentValue);
    return `${entity} · ${m.key} is now ${value}, ${m.corrected ? 'corrected' : 'changed'} ${formatDay(m.supersededAt)}`;
  });
  return `outdated: ${clauses.join('; ')}`;
}

/**
 * Hybrid episodic retrieval: keyword (BM25) and vector candidates, plus candidates restricted to
 * the time window the query names, fused; then recency decay, importance, access frequency, the
 * time-window match and a named speaker re-weight the fused relevance (as do how much of the
 * query's terms, each weighted by its rarity among the candidates, and how many of its adjacent
 * term pairs the episode holds); then MMR removes near-duplicates and redundancy. Works
 * keyword-only without an embedder, and falls back to keyword-only (noted) when the embedder
 * throws.
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
  timer?: StageTimer;
  /** Query embeddings of earlier recalls, reused for the same query. */
  queryVectors?: QueryVectors;
  /**
   * Work to do while the turns around the best hits load, given the likely picks (recall counts
   * their lines then, so the store's round trip and that work overlap).
   */
  whileWaiting?: (likely: readonly EpisodeRecord[]) => void;
}): Promise<EpisodeRetrieval> {
  const { store, scope, accessLevel, query, tuning } = args;
  const time = <T>(stage: RecallStage, fn: () => Promise<T>): Promise<T> =>
    args.timer ? args.timer.time(stage, fn) : fn();
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
  // A window reaching before 1970 or past the last Date (a query naming the year 1850) is cut to
  // the times episodes can have; one wholly outside them searches nothing extra.
  const since =
    window && window.end > 0 && window.start <= MAX_EPOCH_MS
      ? { since: Math.max(0, window.start), until: Math.min(MAX_EPOCH_MS, window.end - 1) }
      : undefined;

  let queryVector: number[] | undefined;
  const speakers = speakerMatcher(query);
  const firstKeywordQuery = withVerbForms(query);
  const keywordSearches = async (): Promise<Array<[string, ScoredEpisode[]]>> => {
    if (!tuning.keyword || !searchable) return [];
    if (!store.capabilities.keywordSearch) {
      notes.push(note('keyword-search', `the ${store.name} store has no keyword search`));
      return [];
    }
    const base = { scope, accessLevel, query: firstKeywordQuery, limit: pool };
    return time('keyword', async () => {
      const [all, inWindow] = await Promise.all([
        store.episodes.searchKeyword(base),
        since ? store.episodes.searchKeyword({ ...base, ...since }) : undefined,
      ]);
      return inWindow
        ? [
            ['keyword', all],
            ['keyword@window', inWindow],
          ]
        : [['keyword', all]];
    });
  };
  const vectorSearches = async (): Promise<Array<[string, ScoredEpisode[]]>> => {
    if (!tuning.vector || !searchable) return [];
    if (!args.embedder) {
      notes.push(note('vector-search', 'no embedder configured; keyword search only'));
      return [];
    }
    if (!store.capabilities.vectorSearch) {
      notes.push(note('vector-search', `the ${store.name} store has no vector search; keyword search only`));
      return [];
    }
    const embedder = args.embedder;
    const embed = () => embedQuery(embedder, query);
    const vector = await time('embed', () =>
      args.queryVectors ? args.queryVectors.get(embedder, query, embed) : embed(),
    ).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      notes.push(note('vector-search', `embedder "${embedder.id}" failed (${message}); keyword search only`));
      return undefined;
    });
    if (!vector) return [];
    queryVector = vector;
    const base = { scope, accessLevel, vector, limit: pool };
    return time('vector', async () => {
      const [all, inWindow] = await Promise.all([
        store.episodes.searchVector(base),
        since ? store.episodes.searchVector({ ...base, ...since }) : undefined,
      ]);
      return inWindow
        ? [
            ['vector', all],
            ['vector@window', inWindow],
          ]
        : [['vector', all]];
    });
  };
  const [keywordResults, vectorResults] = await Promise.all([keywordSearches(), vectorSearches()]);
  for (const [name, results] of keywordResults) addList(name, tuning.keywordWeight, results);
  for (const [name, results] of vectorResults) addList(name, tuning.vectorWeight, results);

  if (tuning.speakerNamesOutOfKeywords && lists.some((l) => l.name.startsWith('keyword'))) {
    await time('keyword', () =>
      searchWithoutSpeakerNames({
        store,
        scope,
        accessLevel,
        query: firstKeywordQuery,
        pool,
        since,
        lists,
        episodes,
        speakers,
      }),
    );
  }
  if (tuning.completeVectorScores && queryVector) scoreEveryCandidate(lists, episodes.values(), queryVector);
  const queryWords = contentWords(query);
  const queryTerms = new Set(queryWords);
  const queryPairs = adjacentPairs(queryWords);
  const priorContext: PriorContext = {
    now: args.now,
    policy: args.policy,
    tuning,
    ...(window ? { window } : {}),
    speakers: tuning.ownerNames ? askedSpeakers(query, speakers, episodes.values()) : speakers,
  };
  const priorOf = (episode: EpisodeRecord) => episodePrior(episode, priorContext);
  const fused = weightedFusion(mergeWindowLists(lists));
  const coverage = tuning.coverageWeight > 0 && queryTerms.size > 0;
  const termSets = new Map<string, Set<string>>();
  if (coverage) for (const [id, e] of episodes) termSets.set(id, new Set(termsOf(e.text)));
  // Each query term counts by its rarity among the candidates (or all alike).
  const termWeights = coverage && tuning.coverageIdf ? termRarity(queryTerms, termSets.values()) : undefined;
  let queryWeight = 0;
  for (const t of queryTerms) queryWeight += termWeights?.get(t) ?? 1;
  // Vector similarity says nothing below what unrelated text reaches (no floor: every match counts).
  const floor = queryVector && args.embedder ? args.embedder.unrelatedSimilarity : undefined;
  const scored: Scored[] = [];
  for (const [id, f] of fused) {
    const episode = episodes.get(id)!;
    const prior = priorOf(episode);
    let match = f.fused;
    if (coverage) {
      const terms = termSets.get(id)!;
      let held = 0;
      for (const t of queryTerms) if (terms.has(t)) held += termWeights?.get(t) ?? 1;
      match *= 1 - tuning.coverageWeight + (tuning.coverageWeight * held) / queryWeight;
    }
    if (tuning.proximityWeight > 0 && queryPairs.size > 0) {
      const pairs = adjacentPairs(termsOf(episode.text));
      let held = 0;
      for (const pair of queryPairs) if (pairs.has(pair)) held++;
      match *= 1 + (tuning.proximityWeight * held) / queryPairs.size;
    }
    const final = match * prior.factor;
    const scores: ItemScores = {
      fused: round(f.fused),
      recency: round(prior.recency),
      importance: round(episode.importance),
      access: round(prior.access),
      final: round(final),
    };
    if (f.scores.keyword !== undefined) scores.keyword = round(f.scores.keyword);
    if (f.scores.vector !== undefined) scores.vector = round(f.scores.vector);
    if (prior.time !== undefined) scores.time = round(prior.time);
    const reasons = [`${Object.keys(f.ranks).join(' + ')} match`, ...prior.reasons];
    const matched =
      floor === undefined ||
      (f.scores.keyword ?? 0) > 0 ||
      (f.scores.vector ?? Number.NEGATIVE_INFINITY) >= floor ||
      (window !== undefined && episode.occurredAt >= window.start && episode.occurredAt < window.end);
    if (!matched) reasons.push(`no keyword of the query, vector similarity below ${floor} (unrelated text)`);
    scored.push({ id, episode, relevance: final, prior: prior.factor, scores, reasons, matched });
  }
  if (tuning.sessionWeight > 0) applySessionPrior(scored, tuning);
  scored.sort((a, b) => b.relevance - a.relevance || a.id.localeCompare(b.id));
  if (tuning.contextHits > 0 && tuning.contextTurns > 0 && scored.length > 0) {
    await time('neighbours', async () => {
      // The reads run while the work below does; their outcome is held at once, so a failed read
      // is never an unhandled rejection (which ends the process), and is thrown after the work.
      const reading = addNeighbours({ store, scope, accessLevel, tuning, scored, priorOf }).then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
      let workFailed: { error: unknown } | undefined;
      if (args.whileWaiting) {
        // One turn of the event loop first, so the reads are on their way before the work starts.
        await new Promise((resolve) => setImmediate(resolve));
        try {
          args.whileWaiting(scored.slice(0, args.maxEpisodes).map((s) => s.episode));
        } catch (error) {
          workFailed = { error };
        }
      }
      const readFailed = await reading;
      const failed = workFailed ?? readFailed;
      if (failed) throw failed.error;
    });
    scored.sort((a, b) => b.relevance - a.relevance || a.id.localeCompare(b.id));
  }

  for (const s of scored) s.scores.final = round(s.relevance);

  const rankStart = performance.now();
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
      similarity: (a, b) => {
        const content = episodeSimilarity(a, b);
        return tuning.mmrStretchSimilarity > 0 && sameStretch(a, b, tuning.contextGapMs)
          ? Math.max(content, tuning.mmrStretchSimilarity)
          : content;
      },
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
      matched: s.matched,
      ...(s.carried ? { carried: s.carried } : {}),
    };
  });
  args.timer?.add('rank', performance.now() - rankStart);
  return { selected, dropped, notes, ...(window ? { window } : {}) };
}

/**
 * Every candidate gets a vector score: one that only keyword search found (outside the vector
 * search's top `candidatePool`) is scored with the cosine of its stored embedding, so fusion weighs
 * both signals for every candidate instead of counting the missing one as zero. Candidates without
 * an embedding of the query's size keep none.
 */
function scoreEveryCandidate(
  lists: RankedList[],
  candidates: Iterable<EpisodeRecord>,
  vector: number[],
): void {
  const list = lists.find((l) => l.name === 'vector');
  if (!list) return;
  const scored = new Set(
    lists.filter((l) => l.name.split('@')[0] === 'vector').flatMap((l) => l.items.map((i) => i.id)),
  );
  for (const episode of candidates) {
    if (scored.has(episode.id) || episode.embedding?.length !== vector.length) continue;
    list.items.push({ id: episode.id, score: cosine(vector, episode.embedding) });
  }
  list.items.sort((a, b) => b.score - a.score);
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
  const vectors = await embedder.embed({ texts: [query], purpose: 'query' });
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
  if (ea && eb && ea.length === eb.length) {
    // MMR compares each pick with every remaining candidate: normalise each embedding once.
    a.unit ??= unitVector(ea);
    b.unit ??= unitVector(eb);
    return dotProduct(a.unit, b.unit);
  }
  a.terms ??= new Set(termsOf(a.episode.text));
  b.terms ??= new Set(termsOf(b.episode.text));
  return termOverlap(a.terms, b.terms);
}

/** Two turns of one conversation stretch: the same thread, close in time. */
function sameStretch(a: Scored, b: Scored, gapMs: number): boolean {
  return (
    a.episode.provenance.threadId === b.episode.provenance.threadId &&
    Math.abs(a.episode.occurredAt - b.episode.occurredAt) <= gapMs
  );
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
