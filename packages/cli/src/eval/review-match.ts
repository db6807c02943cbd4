import type { JsonValue, ReviewItem } from '@strata-memory/core';

/**
 * A review item in words, as cases match it: `construction suppliers · payment terms: 90 days
 * (hypothetical) "What if we extended terms to 90 days?"`, or `A —depends_on→ B (…)` for an edge.
 */
export function reviewItemText(item: ReviewItem): string {
  const p = item.proposal;
  const what =
    item.kind === 'fact'
      ? `${textOf(p.entityId)} · ${textOf(p.key)}: ${textOf(p.value)}`
      : `${nameOf(p.from)} —${textOf(p.relation)}→ ${nameOf(p.to)}`;
  const evidence = typeof p.evidence === 'string' ? ` "${p.evidence}"` : '';
  return `${what} (${item.reason.replace('_', ' ')})${evidence}`;
}

/** The items whose text contains `text`, ignoring case. */
export function matchingItems(items: ReviewItem[], text: string): ReviewItem[] {
  const needle = text.toLowerCase();
  return items.filter((item) => reviewItemText(item).toLowerCase().includes(needle));
}

/** A fact value as text (strings as they are, anything else as JSON). */
export function textOf(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function nameOf(end: JsonValue | undefined): string {
  if (end && typeof end === 'object' && !Array.isArray(end) && typeof end.name === 'string') return end.name;
  return textOf(end);
}
