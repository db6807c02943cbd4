import { FACT_INDEX_KEY } from '../engine/metadata-keys.ts';
import { conflict, StrataError } from '../errors/strata-error.ts';
import type { Scope } from '../scope/scope.ts';
import type { StoreTransaction } from '../store/contract.ts';
import type { FactRecord, JsonValue, Metadata, Provenance } from '../store/records.ts';
import { currentAt, sameValue } from './fact-reads.ts';
import { markOutdatedEpisodes, withSourceEpisode } from './outdated-episodes.ts';

/**
 * The one place facts are written. A write never overwrites:
 * - no current value at the write's scope → version 1 is inserted;
 * - the same value → the current version is confirmed (`lastConfirmedAt`, stale cleared);
 * - a different value → the current version is superseded (`validTo`, `supersededBy`) by a new one.
 *
 * Concurrency is optimistic: a supersede names the version it read, and when a concurrent writer
 * got there first (`conflict`) the write re-reads and supersedes the new current version.
 *
 * A value set by a human correction is protected: a later *extracted* statement with a different
 * value does not replace it (the caller queues that statement for review instead); only another
 * correction, an API write or an approved review does.
 */

export type FactWriteMode =
  /** Read from a conversation; yields to a human correction. */
  | 'statement'
  /** A correction: replaces whatever is current and protects the new value. */
  | 'correction'
  /** Written through the API or approved in review: authoritative, not marked as a correction. */
  | 'authoritative';

export interface FactWrite {
  scope: Scope;
  entityType: string;
  entityId: string;
  key: string;
  value: JsonValue;
  confidence: number;
  mode: FactWriteMode;
  accessLevel: number;
  provenance: Provenance;
  metadata?: Metadata;
  at: number;
}

export type FactWriteOutcome =
  | { kind: 'inserted'; fact: FactRecord }
  | { kind: 'superseded'; fact: FactRecord; previous: FactRecord }
  | { kind: 'confirmed'; fact: FactRecord }
  /** A statement that disagrees with a corrected value: not written. */
  | { kind: 'protected'; current: FactRecord };

const MAX_ATTEMPTS = 6;

/** The current version's index link, for a new version whose write does not set its own. */
function carriedIndex(current: FactRecord, metadata: Metadata): Metadata {
  const index = current.metadata[FACT_INDEX_KEY];
  return index === undefined || FACT_INDEX_KEY in metadata ? {} : { [FACT_INDEX_KEY]: index };
}

/** True when the value came from a human correction (or a human-approved review). */
export function isCorrected(fact: FactRecord): boolean {
  return fact.metadata.correction === true || fact.provenance.source === 'human';
}

async function attempt(tx: StoreTransaction, write: FactWrite): Promise<FactWriteOutcome> {
  const key = { scope: write.scope, entityType: write.entityType, entityId: write.entityId, key: write.key };
  const current = await currentAt(tx, key);
  const metadata: Metadata = {
    ...(write.metadata ?? {}),
    ...(write.mode === 'correction' ? { correction: true } : {}),
  };

  if (!current) {
    const fact = await tx.facts.insert({
      fact: {
        ...key,
        value: write.value,
        confidence: write.confidence,
        validFrom: write.at,
        lastConfirmedAt: write.at,
        createdAt: write.at,
        accessLevel: write.accessLevel,
        provenance: write.provenance,
        metadata,
      },
    });
    return { kind: 'inserted', fact };
  }

  if (sameValue(current.value, write.value)) {
    // The restating episode now also states this value: it is marked outdated with it later.
    const confirmation: Metadata = {
      ...withSourceEpisode(current, write.provenance.episodeId),
      ...(write.mode === 'correction' && !isCorrected(current) ? { correction: true } : {}),
    };
    const fact = await tx.facts.update({
      scope: write.scope,
      id: current.id,
      patch: {
        status: 'active',
        lastConfirmedAt: Math.max(write.at, current.lastConfirmedAt),
        confidence: Math.max(current.confidence, write.confidence),
        ...(Object.keys(confirmation).length > 0 ? { metadata: confirmation } : {}),
      },
    });
    return { kind: 'confirmed', fact };
  }

  if (write.mode === 'statement' && isCorrected(current)) return { kind: 'protected', current };

  const { previous, current: fact } = await tx.facts.supersede({
    scope: write.scope,
    id: current.id,
    expectedVersion: current.version,
    at: write.at,
    next: {
      value: write.value,
      confidence: write.confidence,
      // A new version is never less restricted than the one it replaces.
      accessLevel: Math.max(write.accessLevel, current.accessLevel),
      provenance: write.provenance,
      // The fact's index (see `fact-index.ts`) follows the key to the new version unless replaced.
      metadata: { ...carriedIndex(current, metadata), ...metadata, previousValue: current.value },
    },
  });
  await markOutdatedEpisodes(tx, fact);
  return { kind: 'superseded', fact, previous };
}

/** Writes one fact value (see the module comment); retries on `conflict`. */
export async function writeFact(tx: StoreTransaction, write: FactWrite): Promise<FactWriteOutcome> {
  let last: unknown;
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    try {
      return await attempt(tx, write);
    } catch (error) {
      if (!StrataError.hasCode(error, 'conflict')) throw error;
      last = error;
    }
  }
  throw conflict(
    `The fact ${write.entityType} "${write.entityId}" ${write.key} kept changing under concurrent writers; retry the write.`,
    { entityType: write.entityType, entityId: write.entityId, key: write.key, cause: String(last) },
  );
}
