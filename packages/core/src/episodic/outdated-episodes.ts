import type { Scope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import type { FactRecord } from '../store/records.ts';

/**
 * When a fact value is superseded, the episode it was read from still says the old value
 * ("Supplier X's lead time is 45 days"). That episode is marked in its metadata —
 * `outdatedFacts: { [factId]: supersededById }` — so recall can leave it out or caveat it
 * instead of showing an overridden value as if it were current. The episode itself is kept.
 */
export async function markSourceEpisodeOutdated(
  tx: StoreTransaction,
  args: { scope: Scope; previous: FactRecord; current: FactRecord },
): Promise<void> {
  const episodeId = args.previous.provenance.episodeId;
  if (!episodeId) return;
  const [episode] = await tx.episodes.get({ scope: args.scope, ids: [episodeId] });
  if (!episode) return;
  const outdated = (episode.metadata.outdatedFacts ?? {}) as Record<string, string>;
  await tx.episodes.update({
    scope: episode.scope,
    id: episode.id,
    patch: { metadata: { outdatedFacts: { ...outdated, [args.previous.id]: args.current.id } } },
  });
}
