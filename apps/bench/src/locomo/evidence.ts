/** The evidence of one question, resolved against the turns of its conversation. */
export interface Evidence {
  /** Distinct evidence ids that name a turn of the conversation. */
  turns: string[];
  /** Distinct evidence ids that name no turn (malformed like `D:11:26` or `D`, or unknown): always missed. */
  unresolved: string[];
}

/**
 * Splits a question's evidence entries on `;` and whitespace (`"D8:6; D9:17"` holds two ids) and
 * sorts each id into a turn of the conversation or an id that names none, as the dataset README
 * prescribes. Duplicates count once.
 */
export function parseEvidence(entries: readonly string[], turnIds: ReadonlySet<string>): Evidence {
  const ids = new Set(entries.flatMap((entry) => entry.split(/[;\s]+/)).filter((id) => id.length > 0));
  const turns: string[] = [];
  const unresolved: string[] = [];
  for (const id of ids) (turnIds.has(id) ? turns : unresolved).push(id);
  return { turns, unresolved };
}

/** How many evidence ids a question has: the denominator of its recall. */
export function evidenceSize(evidence: Evidence): number {
  return evidence.turns.length + evidence.unresolved.length;
}
