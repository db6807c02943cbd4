import { findAllFacts } from '../facts/fact-reads.ts';
import { sourceEpisodeIdsOf } from '../facts/outdated-episodes.ts';
import type { Scope } from '../scope/scope.ts';
import type { Store } from '../store/contract.ts';
import type { EpisodeRecord, FactRecord, JsonValue, Provenance } from '../store/records.ts';

/**
 * What each episode stated, read from provenance: the fact versions it produced or confirmed and
 * the graph nodes and edges it produced. Two episodes with the same non-empty set state the same
 * thing in other words ("I prefer aisle seats", "aisle seat please"), so consolidation merges them;
 * an episode that also stated something else (another fact, a decision) has a different set and
 * stays. Review items are not read: an episode that left only a review item states no fact.
 */

export interface StatedFact {
  id: string;
  entityType: string;
  entityId: string;
  key: string;
  value: JsonValue;
}

export interface StatedItems {
  /** Episode id → a signature of everything it stated (absent when it stated no fact). */
  signatureOf: Map<string, string>;
  /** Episode id → the facts it stated. */
  factsOf: Map<string, StatedFact[]>;
}

const ALL_FACT_STATUSES: FactRecord['status'][] = ['active', 'stale', 'superseded', 'pending_review'];

async function graphSources(
  store: Store,
  scope: Scope,
): Promise<Array<{ id: string; provenance: Provenance }>> {
  const out: Array<{ id: string; provenance: Provenance }> = [];
  for (const list of ['listNodes', 'listEdges'] as const) {
    let cursor: string | undefined;
    do {
      const page = await store.graph[list]({
        scope,
        status: ['active', 'superseded'],
        limit: 1000,
        ...(cursor ? { cursor } : {}),
      });
      out.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
  }
  return out;
}

export async function statedItems(
  store: Store,
  args: { scope: Scope; episodes: EpisodeRecord[] },
): Promise<StatedItems> {
  const wanted = new Set(args.episodes.map((e) => e.id));
  const items = new Map<string, string[]>();
  const factsOf = new Map<string, StatedFact[]>();
  const add = (episodeId: string, item: string) => {
    if (wanted.has(episodeId)) items.set(episodeId, [...(items.get(episodeId) ?? []), item]);
  };
  for (const fact of await findAllFacts(store, { scope: args.scope, status: ALL_FACT_STATUSES })) {
    for (const episodeId of sourceEpisodeIdsOf(fact)) {
      if (!wanted.has(episodeId)) continue;
      add(episodeId, `fact:${fact.id}`);
      const { id, entityType, entityId, key, value } = fact;
      factsOf.set(episodeId, [...(factsOf.get(episodeId) ?? []), { id, entityType, entityId, key, value }]);
    }
  }
  for (const item of await graphSources(store, args.scope)) {
    if (item.provenance.episodeId) add(item.provenance.episodeId, `graph:${item.id}`);
  }
  const signatureOf = new Map<string, string>();
  for (const [episodeId, stated] of items) {
    if (!factsOf.has(episodeId)) continue;
    signatureOf.set(episodeId, [...new Set(stated)].sort().join('\u0000'));
  }
  for (const facts of factsOf.values()) facts.sort((a, b) => (a.id < b.id ? -1 : 1));
  return { signatureOf, factsOf };
}
