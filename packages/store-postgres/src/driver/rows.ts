import { type JsonValue, type Metadata, type Scope, scopeFromColumns } from '@strata-memory/core';

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
  for (const [key, value] of Object.entries(record)) {
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/**
 * A one-dimensional float8[] in PostgreSQL's binary array format (what `array_send` returns):
 * dimensions, null flag, element type, then per dimension its length and lower bound, then each
 * element as a 4-byte length and an 8-byte big-endian IEEE double. node-postgres hands a bytea as
 * a Buffer, PGlite as a Uint8Array.
 */
export function decodeFloat8Array(value: unknown): number[] {
  if (!(value instanceof Uint8Array)) throw new Error('expected the binary form of a float8[]');
  const view = new DataView(value.buffer, value.byteOffset, value.byteLength);
  const dimensions = view.getInt32(0);
  if (dimensions === 0) return [];
  if (dimensions !== 1 || view.getInt32(4) !== 0)
    throw new Error('expected a one-dimensional float8[] without nulls');
  const length = view.getInt32(12);
  const out = new Array<number>(length);
  let offset = 20;
  for (let i = 0; i < length; i++) {
    offset += 4;
    out[i] = view.getFloat64(offset);
    offset += 8;
  }
  return out;
}
