import { z } from 'zod/v4';
import { SOURCE_EPISODES_KEY } from '../engine/metadata-keys.ts';
import { type Scope, sameScope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import type { EpisodeRecord, FactRecord, JsonValue, Metadata } from '../store/records.ts';
import { sameValue } from './fact-reads.ts';

/**
 * Outdated-episode markers: how an episode that states a superseded fact value says so.
 *
 * When a fact is superseded ("Supplier X's lead time is 45 days" → corrected to 30 days), the
 * episodes the old value came from still say "45 days". They are kept (they are what was said),
 * and each gets a marker in its metadata so recall can leave it out or render it with a caveat
 * ("outdated: lead time is now 30 days") instead of showing an overridden value as current.
 *
 * The marker, `episode.metadata.outdatedFacts`, maps the id of each superseded fact version the
 * episode stated to an `OutdatedFact`:
 *
 * ```jsonc
 * "outdatedFacts": {
 *   "fact_…45days": {
 *     "factId": "fact_…45days",        // the superseded version the episode stated (= the map key)
 *     "entityType": "entity", "entityId": "supplier x", "key": "lead time",
 *     "statedValue": "45 days",        // what the episode says
 *     "currentFactId": "fact_…30days", // the version current now for that key
 *     "currentValue": "30 days",       // its value
 *     "supersededAt": 1773050400000,   // when the stated value stopped being current (epoch ms)
 *     "corrected": true                // the current value is a human correction or approval
 *   }
 * }
 * ```
 *
 * Which episodes: a version's source episode (`provenance.episodeId`), every episode that later
 * restated the same value and so confirmed it (`metadata.sourceEpisodeIds`), and, one hop on,
 * the episode a source was merged into or the summary it was archived into. Markers are kept
 * current: every later supersede of the key rewrites `currentFactId`/`currentValue` on the
 * markers of its last `MAX_VERSIONS_REWRITTEN` versions, and removes a marker when the value
 * the episode states is current again. Deleting a fact (`forgetItem`) removes its markers.
 * Entries that are not objects of this shape (a bare superseding-fact id, as written by earlier
 * versions of the engine) are ignored by `outdatedFactsOf` and replaced when the key changes again.
 */

export const OUTDATED_FACTS_KEY = 'outdatedFacts';
const MAX_SOURCE_EPISODES = 200;
const MAX_VERSIONS_REWRITTEN = 50;

export interface OutdatedFact {
  factId: string;
  entityType: string;
  entityId: string;
  key: string;
  statedValue: JsonValue;
  currentFactId: string;
  currentValue: JsonValue;
  supersededAt: number;
  corrected: boolean;
}

const outdatedFactSchema = z.object({
  factId: z.string().min(1),
  entityType: z.string(),
  entityId: z.string(),
  key: z.string(),
  statedValue: z.json(),
  currentFactId: z.string().min(1),
  currentValue: z.json(),
  supersededAt: z.number(),
  corrected: z.boolean(),
});

/** The well-formed outdated-fact markers of an episode, oldest supersede first. */
export function outdatedFactsOf(episode: Pick<EpisodeRecord, 'metadata'>): OutdatedFact[] {
  const raw = episode.metadata[OUTDATED_FACTS_KEY];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return [];
  const out: OutdatedFact[] = [];
  for (const entry of Object.values(raw)) {
    const parsed = outdatedFactSchema.safeParse(entry);
    if (parsed.success) out.push(parsed.data as OutdatedFact);
  }
  return out.sort((a, b) => a.supersededAt - b.supersededAt || (a.factId < b.factId ? -1 : 1));
}

/** The episodes a fact version was read from or confirmed by. */
export function sourceEpisodeIdsOf(fact: Pick<FactRecord, 'provenance' | 'metadata'>): string[] {
  const extra = fact.metadata[SOURCE_EPISODES_KEY];
  const ids = [
    ...(fact.provenance.episodeId ? [fact.provenance.episodeId] : []),
    ...(Array.isArray(extra) ? extra.filter((id): id is string => typeof id === 'string') : []),
  ];
  return [...new Set(ids)];
}

/** `fact.metadata` patch recording one more episode that restated the value, or undefined if known. */
export function withSourceEpisode(
  fact: Pick<FactRecord, 'provenance' | 'metadata'>,
  episodeId: string | undefined,
): Metadata | undefined {
  if (!episodeId || sourceEpisodeIdsOf(fact).includes(episodeId)) return undefined;
  const extra = sourceEpisodeIdsOf(fact).filter((id) => id !== fact.provenance.episodeId);
  return { [SOURCE_EPISODES_KEY]: [...extra, episodeId].slice(-MAX_SOURCE_EPISODES) };
}

function markersOf(episode: EpisodeRecord): Record<string, JsonValue> {
  const raw = episode.metadata[OUTDATED_FACTS_KEY];
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? { ...raw } : {};
}

/**
 * The episodes behind `versions`, each with the versions it stated, following a merged episode
 * to the one it was merged into and an archived one to its summary.
 */
async function episodesStating(
  tx: StoreTransaction,
  scope: Scope,
  versions: FactRecord[],
): Promise<Map<string, { episode: EpisodeRecord; stated: FactRecord[] }>> {
  const statedBy = new Map<string, FactRecord[]>();
  for (const version of versions) {
    for (const id of sourceEpisodeIdsOf(version)) statedBy.set(id, [...(statedBy.get(id) ?? []), version]);
  }
  const out = new Map<string, { episode: EpisodeRecord; stated: FactRecord[] }>();
  if (statedBy.size === 0) return out;
  const sources = await tx.episodes.get({ scope, ids: [...statedBy.keys()] });
  const onward = new Map<string, FactRecord[]>();
  for (const episode of sources) {
    const stated = statedBy.get(episode.id) ?? [];
    out.set(episode.id, { episode, stated });
    const next =
      episode.mergedInto ??
      (typeof episode.metadata.archivedInto === 'string' ? episode.metadata.archivedInto : undefined);
    if (next && !statedBy.has(next)) onward.set(next, [...(onward.get(next) ?? []), ...stated]);
  }
  if (onward.size > 0) {
    for (const episode of await tx.episodes.get({ scope, ids: [...onward.keys()] })) {
      out.set(episode.id, { episode, stated: onward.get(episode.id) ?? [] });
    }
  }
  return out;
}

async function writeMarkers(
  tx: StoreTransaction,
  episode: EpisodeRecord,
  markers: Record<string, JsonValue>,
): Promise<void> {
  const before = JSON.stringify(markersOf(episode));
  if (JSON.stringify(markers) === before) return;
  await tx.episodes.update({
    scope: episode.scope,
    id: episode.id,
    patch: { metadata: { [OUTDATED_FACTS_KEY]: markers } },
  });
}

/**
 * After `current` superseded a version of its key: marks the episodes that stated each earlier
 * version (at the same scope) as outdated, pointing at `current`, and unmarks those whose value
 * is current again.
 */
export async function markOutdatedEpisodes(tx: StoreTransaction, current: FactRecord): Promise<void> {
  const history = await tx.facts.history({
    scope: current.scope,
    entityType: current.entityType,
    entityId: current.entityId,
    key: current.key,
  });
  const earlier = history
    .filter((v) => v.id !== current.id && v.status === 'superseded' && sameScope(v.scope, current.scope))
    .sort((a, b) => b.version - a.version)
    .slice(0, MAX_VERSIONS_REWRITTEN);
  const corrected = current.metadata.correction === true || current.provenance.source === 'human';
  const currentSources = new Set(sourceEpisodeIdsOf(current));
  for (const { episode, stated } of (await episodesStating(tx, current.scope, earlier)).values()) {
    const markers = markersOf(episode);
    for (const version of stated) {
      const previous = outdatedFactSchema.safeParse(markers[version.id]);
      if (sameValue(version.value, current.value) || currentSources.has(episode.id)) {
        delete markers[version.id];
        continue;
      }
      const marker: OutdatedFact = {
        factId: version.id,
        entityType: version.entityType,
        entityId: version.entityId,
        key: version.key,
        statedValue: version.value,
        currentFactId: current.id,
        currentValue: current.value,
        supersededAt: previous.success ? previous.data.supersededAt : (version.validTo ?? current.validFrom),
        corrected,
      };
      markers[version.id] = marker as unknown as JsonValue;
    }
    await writeMarkers(tx, episode, markers);
  }
}

/** Before the versions of a fact are deleted: removes the markers that name them from their episodes. */
export async function clearOutdatedMarkers(
  tx: StoreTransaction,
  args: { scope: Scope; versions: FactRecord[] },
): Promise<void> {
  const ids = new Set(args.versions.map((v) => v.id));
  for (const { episode } of (await episodesStating(tx, args.scope, args.versions)).values()) {
    const markers = markersOf(episode);
    for (const [factId, entry] of Object.entries(markers)) {
      const parsed = outdatedFactSchema.safeParse(entry);
      const current = parsed.success
        ? parsed.data.currentFactId
        : typeof entry === 'string'
          ? entry
          : undefined;
      if (ids.has(factId) || (current !== undefined && ids.has(current))) delete markers[factId];
    }
    await writeMarkers(tx, episode, markers);
  }
}
