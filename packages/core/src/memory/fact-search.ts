import { type Engine, readLevel } from '../engine/engine.ts';
import { factSearchSchema, principalOptionsSchema } from '../engine/input-schemas.ts';
import type { FactsApi, ScoredFact } from '../engine/types.ts';
import { indexEpisodeIdsOf, indexedFactOf } from '../facts/fact-index.ts';
import { CURRENT, withStaleness } from '../facts/fact-reads.ts';
import { type StoredSelection, storedSelection } from '../facts/facts-api.ts';
import { retrieveEpisodes } from '../recall/episode-retrieval.ts';
import { defaultRecallTuning } from '../recall/tuning.ts';
import type { Scope } from '../scope/scope.ts';
import { parseScope } from '../scope/scope.ts';
import { parseArgs } from '../store/define-store.ts';
import { LIMITS } from '../store/limits.ts';
import type { FactRecord } from '../store/records.ts';
import * as storeSchemas from '../store/schemas.ts';

/** The scopes a search ranks episodes in: the scope itself, or each scope of its subtree. */
async function searchScopes(
  engine: Engine,
  scope: Scope,
  within: StoredSelection['within'],
): Promise<Scope[]> {
  if (within !== 'subtree') return [scope];
  const scopes: Scope[] = [];
  let cursor: string | undefined;
  do {
    const page = await engine.store.scopes.list({
      scope,
      limit: LIMITS.maxLimit,
      ...(cursor ? { cursor } : {}),
    });
    scopes.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return scopes;
}

/**
 * Scores of the episodes retrieval ranked for `query` at `scope`: the kept candidates and those it
 * dropped (near-duplicates of a kept one, below the cut) alike, since each may index its own fact.
 */
async function episodeScores(
  engine: Engine,
  scope: Scope,
  query: string,
  accessLevel: number,
  candidates: number,
): Promise<Map<string, number>> {
  const retrieval = await retrieveEpisodes({
    store: engine.store,
    ...(engine.embedder ? { embedder: engine.embedder } : {}),
    scope,
    accessLevel,
    query,
    now: engine.clock.now(),
    policy: engine.policy,
    tuning: defaultRecallTuning,
    maxEpisodes: candidates,
  });
  const scores = new Map<string, number>();
  // A kept candidate's value follows the pick order (as recall ranks it); a dropped one's its own score.
  for (const c of retrieval.selected) scores.set(c.episode.id, c.value);
  for (const d of retrieval.dropped) {
    if (d.layer === 'episodes' && d.scores !== undefined && !scores.has(d.id))
      scores.set(d.id, d.scores.final);
  }
  return scores;
}

/** Ranked facts for `facts.search`: see `FactsApi.search`. */
async function searchFacts(
  engine: Engine,
  args: {
    scope: Scope;
    selection: StoredSelection;
    query: string;
    accessLevel: number;
    candidates: number;
  },
): Promise<ScoredFact[]> {
  const { scope, selection, accessLevel } = args;
  if (!args.query.trim()) return [];
  const best = new Map<string, ScoredFact>();
  for (const at of await searchScopes(engine, scope, selection.within)) {
    const scores = await episodeScores(engine, at, args.query, accessLevel, args.candidates);
    if (scores.size === 0) continue;
    // Which facts own the hits: their ids are in the hits' metadata; the store applies the filters.
    const hits = await engine.store.episodes.get({ scope: at, ids: [...scores.keys()], accessLevel });
    const entityIds = [
      ...new Set(hits.map((e) => indexedFactOf(e)?.entityId).filter((id) => id !== undefined)),
    ];
    for (let i = 0; i < entityIds.length; i += LIMITS.maxBatch) {
      const page = await engine.store.facts.find({
        scope: at,
        within: selection.within === 'subtree' ? 'exact' : selection.within,
        accessLevel,
        status: CURRENT,
        entityIds: entityIds.slice(i, i + LIMITS.maxBatch),
        ...(selection.entityType === undefined ? {} : { entityType: selection.entityType }),
        ...(selection.entityId === undefined ? {} : { entityId: selection.entityId }),
        ...(selection.entityIdPrefix === undefined ? {} : { entityIdPrefix: selection.entityIdPrefix }),
        ...(selection.key === undefined ? {} : { key: selection.key }),
        ...(selection.where === undefined ? {} : { where: selection.where }),
        limit: LIMITS.maxLimit,
      });
      for (const fact of page.items) {
        let score = Number.NEGATIVE_INFINITY;
        for (const id of indexEpisodeIdsOf(fact)) score = Math.max(score, scores.get(id) ?? score);
        if (score === Number.NEGATIVE_INFINITY) continue;
        const held = best.get(fact.id);
        if (!held || held.score < score) best.set(fact.id, { fact, score });
      }
    }
  }
  // At most one batch of ids, so a caller can pass them back as `facts.find`'s `exclude`.
  return [...best.values()]
    .sort((a, b) => b.score - a.score || byConfirmation(a.fact, b.fact))
    .slice(0, LIMITS.maxBatch);
}

function byConfirmation(a: FactRecord, b: FactRecord): number {
  return (
    b.lastConfirmedAt - a.lastConfirmedAt ||
    (a.entityId < b.entityId ? -1 : a.entityId > b.entityId ? 1 : a.id < b.id ? -1 : 1)
  );
}

/** `memory.facts.search`: the selection checked first (a bad filter fails before any ranking). */
export function createFactSearch(engine: Engine): FactsApi['search'] {
  return async (scopeInput, queryInput, options) => {
    const scope = parseScope(scopeInput);
    const query = parseArgs(factSearchSchema, queryInput, 'facts.search: query');
    const { principal } = parseArgs(principalOptionsSchema, options, 'facts.search: options') ?? {};
    const selection = storedSelection(query);
    if (selection.where !== undefined) {
      parseArgs(storeSchemas.valueFilterSchema, selection.where, 'facts.search: where');
    }
    const found = await searchFacts(engine, {
      scope,
      selection: { within: 'visible', ...selection },
      query: query.query,
      accessLevel: readLevel(engine, principal),
      candidates: query.candidates ?? 200,
    });
    const now = engine.clock.now();
    return found.map(({ fact, score }) => ({
      fact: withStaleness(fact, now, engine.policy.staleAfterDays),
      score,
    }));
  };
}
