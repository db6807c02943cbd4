import { normalizeName } from '@strata-memory/core/store';
import type { Alternatives } from './corpus.ts';

/**
 * The matching rule of the extraction benchmark: two strings match when they are equal after
 * `normalizeName` (case, Unicode form, inner whitespace, surrounding punctuation and quotes), a
 * leading article (the, a, an) dropped, and `_` read as a space (so `depends_on` = "depends on").
 * Nothing else is folded: a key synonym or another wording of a value matches only when the label
 * lists it among its alternatives.
 */
export function normalizeLabel(text: string): string {
  return normalizeName(text.replace(/_/g, ' '))
    .replace(/^(?:the|a|an)\s+/, '')
    .trim();
}

export function alternativesOf(label: Alternatives): string[] {
  return (typeof label === 'string' ? [label] : label).map(normalizeLabel);
}

/** Whether `text` (or any of `texts`) is one of the label's alternatives. */
export function matches(label: Alternatives, texts: string | readonly string[]): boolean {
  const accepted = alternativesOf(label);
  const candidates = (typeof texts === 'string' ? [texts] : texts).map(normalizeLabel);
  return candidates.some((c) => accepted.includes(c));
}
