import { createHash } from 'node:crypto';
import { FACT_INDEX_KEY } from '../engine/metadata-keys.ts';
import { estimateImportance } from '../episodic/importance.ts';
import { type Scope, sameScope, scopeKey } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import { LIMITS } from '../store/limits.ts';
import { contentHash } from '../store/normalize.ts';
import type { EpisodeRecord, FactRecord, JsonValue, Provenance } from '../store/records.ts';

/**
 * A fact's index: texts that make the fact findable by search (`facts.remember(scope, { …, index:
 * { texts } })`), kept as episodes that belong to the fact. Recall ranks them like any episode;
 * each names its fact in `metadata.indexes`, so a search hit leads back to the fact
 * (`indexedFactOf`). The fact and its index stay together without the caller keeping a list:
 *
 * - the ids of the current index episodes are on the fact (`metadata.indexEpisodeIds`) and carry
 *   over to each new version of the key;
 * - a later `remember` with `index` replaces the set: texts still given keep their episode (ids are
 *   derived from the scope, the fact's key and the text), new texts get one, the rest are deleted;
 * - `forgetItem(fact)` deletes them with the fact's versions.
 *
 * Index episodes have their own content hash (`fact-index:<hash>`), so they are never folded into a
 * conversation episode with the same words, nor a conversation episode into them by hash.
 */

/** Episode metadata: the fact an index episode belongs to. */
export const INDEXED_FACT_KEY = 'indexes';

/** A fact's key, as stored. */
export interface IndexedFact {
  entityType: string;
  entityId: string;
  key: string;
}

/** The fact an index episode belongs to, or undefined for any other episode. */
export function indexedFactOf(episode: Pick<EpisodeRecord, 'metadata'>): IndexedFact | undefined {
  const raw = episode.metadata[INDEXED_FACT_KEY];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const { entityType, entityId, key } = raw as Record<string, JsonValue>;
  if (typeof entityType !== 'string' || typeof entityId !== 'string' || typeof key !== 'string')
    return undefined;
  return { entityType, entityId, key };
}

/** The ids of the episodes a fact version names as its index. */
export function indexEpisodeIdsOf(fact: Pick<FactRecord, 'metadata'>): string[] {
  const raw = fact.metadata[FACT_INDEX_KEY];
  return Array.isArray(raw) ? raw.filter((id): id is string => typeof id === 'string') : [];
}

function sameFact(a: IndexedFact | undefined, b: IndexedFact): boolean {
  return a !== undefined && a.entityType === b.entityType && a.entityId === b.entityId && a.key === b.key;
}

/** The index episode id of `text` for a fact at `scope`: the same text always maps to the same episode. */
export function indexEpisodeId(scope: Scope, fact: IndexedFact, text: string): string {
  const digest = createHash('sha256')
    .update(
      `${scopeKey(scope)}\n${fact.entityType}\u0000${fact.entityId}\u0000${fact.key}\n${contentHash(text)}`,
    )
    .digest('hex');
  return `ep_${digest.slice(0, 40)}`;
}

/** Texts with one entry per index episode (texts that normalise alike share one). */
export function indexEntries(
  scope: Scope,
  fact: IndexedFact,
  texts: string[],
): Array<{ id: string; text: string }> {
  const seen = new Set<string>();
  const out: Array<{ id: string; text: string }> = [];
  for (const text of texts) {
    const id = indexEpisodeId(scope, fact, text);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ id, text });
  }
  return out;
}

async function getEpisodes(tx: StoreTransaction, scope: Scope, ids: string[]): Promise<EpisodeRecord[]> {
  const out: EpisodeRecord[] = [];
  for (let i = 0; i < ids.length; i += LIMITS.maxBatch) {
    out.push(...(await tx.episodes.get({ scope, ids: ids.slice(i, i + LIMITS.maxBatch) })));
  }
  return out;
}

/** Deletes the listed episodes that really are index episodes of `fact` stored at `scope`. */
export async function deleteIndexEpisodes(
  tx: StoreTransaction,
  args: { scope: Scope; fact: IndexedFact; ids: string[] },
): Promise<string[]> {
  if (args.ids.length === 0) return [];
  const episodes = await getEpisodes(tx, args.scope, [...new Set(args.ids)]);
  const owned = episodes
    .filter((e) => sameScope(e.scope, args.scope) && sameFact(indexedFactOf(e), args.fact))
    .map((e) => e.id);
  for (let i = 0; i < owned.length; i += LIMITS.maxBatch) {
    await tx.episodes.delete({ scope: args.scope, ids: owned.slice(i, i + LIMITS.maxBatch) });
  }
  return owned;
}

/**
 * Makes the fact's index episodes at `scope` exactly `entries`: missing ones are written (with the
 * vectors in `embeddings`, keyed by text), present ones kept, and those of `previous` not among
 * `entries` deleted. Returns what changed.
 */
export async function syncFactIndex(
  tx: StoreTransaction,
  args: {
    scope: Scope;
    fact: IndexedFact;
    entries: Array<{ id: string; text: string }>;
    previous: string[];
    embeddings: ReadonlyMap<string, number[]>;
    speaker?: string;
    accessLevel: number;
    provenance: Provenance;
    at: number;
  },
): Promise<{ written: string[]; removed: string[] }> {
  const { scope, fact, entries } = args;
  const present = new Set(
    (
      await getEpisodes(
        tx,
        scope,
        entries.map((e) => e.id),
      )
    ).map((e) => e.id),
  );
  const missing = entries.filter((e) => !present.has(e.id));
  for (let i = 0; i < missing.length; i += LIMITS.maxBatch) {
    await tx.episodes.put({
      episodes: missing.slice(i, i + LIMITS.maxBatch).map(({ id, text }) => {
        const embedding = args.embeddings.get(text);
        return {
          id,
          scope,
          text,
          role: 'system' as const,
          ...(args.speaker ? { speaker: args.speaker } : {}),
          occurredAt: args.at,
          createdAt: args.at,
          importance: estimateImportance(text),
          ...(embedding ? { embedding } : {}),
          contentHash: `fact-index:${contentHash(text)}`,
          accessLevel: args.accessLevel,
          provenance: args.provenance,
          metadata: { [INDEXED_FACT_KEY]: { ...fact } },
        };
      }),
    });
  }
  const wanted = new Set(entries.map((e) => e.id));
  const removed = await deleteIndexEpisodes(tx, {
    scope,
    fact,
    ids: args.previous.filter((id) => !wanted.has(id)),
  });
  return { written: missing.map((e) => e.id), removed };
}
