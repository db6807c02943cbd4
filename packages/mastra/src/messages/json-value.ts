import type { JsonValue, Metadata } from '@strata-memory/core';

/**
 * A value as JSON keeps it: dates become ISO strings, `undefined` fields disappear. Returns
 * undefined for what JSON cannot hold (cycles, BigInt).
 */
export function toJsonValue(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
  } catch {
    return undefined;
  }
}

/** Mastra metadata (`Record<string, unknown>`) as Strata metadata (JSON values only). */
export function toMetadata(value: Record<string, unknown> | undefined): Metadata | undefined {
  if (value === undefined) return undefined;
  const json = toJsonValue(value);
  return json !== null && typeof json === 'object' && !Array.isArray(json) ? json : {};
}
