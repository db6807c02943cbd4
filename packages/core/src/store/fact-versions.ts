import type { z } from 'zod/v4';
import type { FactRecord } from './records.ts';
import type { factArgs } from './schemas.ts';

type NextVersion = z.output<typeof factArgs.supersede>['next'];

/**
 * The version that `facts.supersede` inserts after `previous`, as every driver must write it
 * (same scope and key, version + 1, `supersedes` = previous id, status active, `validFrom` =
 * `createdAt` = `lastConfirmedAt` = at, `accessLevel` kept unless given).
 */
export function nextFactVersion(previous: FactRecord, next: NextVersion, at: number): FactRecord {
  return {
    id: next.id,
    scope: previous.scope,
    entityType: previous.entityType,
    entityId: previous.entityId,
    key: previous.key,
    value: next.value,
    confidence: next.confidence,
    status: 'active',
    validFrom: at,
    version: previous.version + 1,
    supersedes: previous.id,
    lastConfirmedAt: at,
    accessLevel: next.accessLevel ?? previous.accessLevel,
    provenance: next.provenance,
    createdAt: at,
    metadata: next.metadata,
  };
}
