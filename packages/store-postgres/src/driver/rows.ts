import { type JsonValue, type Metadata, type Scope, scopeFromColumns } from '@strata-memory/core/store';

/** The scope columns every table has. */
export interface ScopeRow {
  tenant_id: string;
  org_id: string;
  user_id: string;
  agent_id: string;
  thread_id: string;
}

export function scopeOfRow(row: ScopeRow): Scope {
  return scopeFromColumns({ org: row.org_id, user: row.user_id, agent: row.agent_id, thread: row.thread_id });
}

/** A bigint column (node-postgres returns int8 as a string, PGlite as a number). */
export function int(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

/** A nullable bigint column, absent when null. */
export function optionalInt(value: unknown): number | undefined {
  return value === null || value === undefined ? undefined : int(value);
}

export function optionalText(value: unknown): string | undefined {
  return value === null || value === undefined ? undefined : String(value);
}

export function metadataOf(value: unknown): Metadata {
  return (value ?? {}) as Metadata;
}

export function jsonOf(value: unknown): JsonValue {
  return value as JsonValue;
}

/** A copy of `record` without its `undefined` fields, so records hold only the fields that are set. */
export function compact<T extends object>(record: T): T {
  const out = {} as T;
  // for…in, not Object.entries: no [key, value] array per field (every row read goes through here).
  for (const key in record) {
    const value = record[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
