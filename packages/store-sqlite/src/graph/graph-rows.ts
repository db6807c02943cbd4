import {
  type EdgeRecord,
  type Metadata,
  type NodeRecord,
  normalizeName,
  type Provenance,
} from '@strata-memory/core/store';
import { fromJson, setIfPresent } from '../sql/json-columns.ts';
import { type ScopeRow, scopeOfRow } from '../sql/scope-sql.ts';

export interface NodeRow extends ScopeRow {
  id: string;
  type: string;
  name: string;
  name_key: string;
  aliases: string;
  properties: string;
  status: NodeRecord['status'];
  access_level: number;
  provenance: string;
  created_at: number;
  updated_at: number;
}

export interface EdgeRow extends ScopeRow {
  id: string;
  from_id: string;
  to_id: string;
  relation: string;
  properties: string;
  confidence: number;
  status: EdgeRecord['status'];
  valid_from: number;
  valid_to: number | null;
  access_level: number;
  provenance: string;
  created_at: number;
}

export function toNode(row: NodeRow): NodeRecord {
  return {
    id: row.id,
    scope: scopeOfRow(row),
    type: row.type,
    name: row.name,
    aliases: fromJson<string[]>(row.aliases),
    properties: fromJson<Metadata>(row.properties),
    status: row.status,
    accessLevel: row.access_level,
    provenance: fromJson<Provenance>(row.provenance),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toEdge(row: EdgeRow): EdgeRecord {
  const record: EdgeRecord = {
    id: row.id,
    scope: scopeOfRow(row),
    from: row.from_id,
    to: row.to_id,
    relation: row.relation,
    properties: fromJson<Metadata>(row.properties),
    confidence: row.confidence,
    status: row.status,
    validFrom: row.valid_from,
    accessLevel: row.access_level,
    provenance: fromJson<Provenance>(row.provenance),
    createdAt: row.created_at,
  };
  setIfPresent(record, 'validTo', row.valid_to);
  return record;
}

/** `existing` plus each of `added` whose normalised form is new and is not the node's name. */
export function mergeAliases(name: string, existing: readonly string[], added: readonly string[]): string[] {
  const seen = new Set([normalizeName(name)]);
  const out: string[] = [];
  for (const alias of [...existing, ...added]) {
    const normal = normalizeName(alias);
    if (normal === '' || seen.has(normal)) continue;
    seen.add(normal);
    out.push(alias);
  }
  return out;
}

/** Every normalised name a node answers to: its name and each alias. */
export function nameKeysOf(name: string, aliases: readonly string[]): string[] {
  return [...new Set([name, ...aliases].map(normalizeName))];
}
