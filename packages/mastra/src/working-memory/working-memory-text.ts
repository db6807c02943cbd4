import type { FactRecord, JsonValue } from '@strata-memory/core';
import { StrataError } from '@strata-memory/core';

/**
 * Mastra's working memory as text, over the resource's facts. Reading renders the current facts
 * (into the template when there is one); writing reads the text as patches, one per key. Keys the
 * text leaves out are never touched: an update can add or change a value, never wipe the block.
 */

/** One key's new value; `null` removes the key (JSON working memory only). */
export interface WorkingMemoryPatch {
  key: string;
  value: JsonValue;
}

/** `- **First Name**: Ada`, `* Name: Ada`, `1. __City__: Lisbon`, `**Role:** admin`. */
const KEY_VALUE_LINE = /^\s*(?:[-*+]|\d+[.)])?\s*(.+?)\s*:\s*(.*?)\s*$/;

function stripEmphasis(text: string): string {
  return text
    .replace(/^(\*\*|__|\*|_)+|(\*\*|__|\*|_)+$/g, '')
    .replace(/^["'`]|["'`]$/g, '')
    .trim();
}

function parseMarkdown(text: string): WorkingMemoryPatch[] {
  const patches: WorkingMemoryPatch[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*#/.test(line)) continue;
    const match = KEY_VALUE_LINE.exec(line);
    if (!match) continue;
    const key = stripEmphasis(match[1]!);
    const value = stripEmphasis(match[2]!);
    // A template line left blank is not a statement about the key.
    if (key.length === 0 || value.length === 0) continue;
    patches.push({ key, value });
  }
  return patches;
}

function parseJson(text: string): WorkingMemoryPatch[] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  return Object.entries(parsed as Record<string, JsonValue>)
    .filter(([key]) => key.trim().length > 0)
    .map(([key, value]) => ({ key, value }));
}

/** Reads a working-memory update: a JSON object (top-level keys), else Markdown `key: value` lines. */
export function parseWorkingMemory(text: string): WorkingMemoryPatch[] {
  if (typeof text !== 'string') {
    throw new StrataError({ code: 'invalid_input', message: 'workingMemory must be a string' });
  }
  return parseJson(text) ?? parseMarkdown(text);
}

function display(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function normalizedKey(key: string): string {
  return key.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * The facts as Markdown. With a template, each `key:` line of the template gets that key's value
 * and facts the template does not name are listed after it.
 */
export function renderMarkdown(facts: readonly FactRecord[], template?: string): string {
  const byKey = new Map(facts.map((f) => [f.key, f]));
  const lines: string[] = [];
  if (template?.trim()) {
    for (const line of template
      .replace(/^\s*\n/, '')
      .trimEnd()
      .split(/\r?\n/)) {
      const match = /^\s*#/.test(line) ? null : KEY_VALUE_LINE.exec(line);
      const key = match ? normalizedKey(stripEmphasis(match[1]!)) : undefined;
      const fact = key === undefined ? undefined : byKey.get(key);
      if (!fact || !match) {
        lines.push(line);
        continue;
      }
      byKey.delete(key!);
      const prefix = line.slice(0, line.indexOf(':', line.indexOf(match[1]!) + match[1]!.length) + 1);
      lines.push(`${prefix} ${display(fact.value)}`);
    }
  } else {
    lines.push('# User Information');
  }
  for (const fact of byKey.values()) lines.push(`- **${fact.key}**: ${display(fact.value)}`);
  return lines.join('\n');
}

/** The facts as one JSON object, key → value. */
export function renderJson(facts: readonly FactRecord[]): string {
  const out: Record<string, JsonValue> = {};
  for (const fact of facts) out[fact.key] = fact.value;
  return JSON.stringify(out);
}
