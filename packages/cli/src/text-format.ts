import type { JsonValue, Provenance, Scope } from '@strata-memory/core';
import { formatScope } from './scope-option.ts';

/** A stored time (ms since the epoch) as an ISO timestamp without milliseconds. */
export function formatTime(ms: number | undefined): string {
  if (ms === undefined) return '';
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A stored value as text: strings as they are, anything else as JSON. */
export function formatValue(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A score to three decimals, or blank when the layer has none. */
export function formatScore(score: number | undefined): string {
  return score === undefined ? '' : score.toFixed(3);
}

/** Where an item came from, e.g. `extraction by maria (thread monday, message msg_1)`. */
export function formatProvenance(provenance: Provenance): string {
  const by = provenance.principalId ? ` by ${provenance.principalId}` : '';
  const from = [
    provenance.threadId ? `thread ${provenance.threadId}` : undefined,
    provenance.messageId ? `message ${provenance.messageId}` : undefined,
  ].filter((part) => part !== undefined);
  return `${provenance.source}${by}${from.length > 0 ? ` (${from.join(', ')})` : ''}`;
}

/** A scope as `--scope` text. */
export function scopeText(scope: Scope): string {
  return formatScope(scope);
}

/** Shortens text to `max` characters on one line. */
export function oneLine(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** A byte count for a person: 1.4 MB. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}
