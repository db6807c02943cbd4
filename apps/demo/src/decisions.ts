import type { FactRecord, JsonValue, NodeRecord, ObserveResult } from '@strata-memory/core';

/**
 * Plain-language lines for what `observe` decided about a message: facts written, superseded or
 * confirmed, proposals sent to review, edges added, duplicates skipped. Only reads the result.
 */

export function valueText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** `supplier x · lead time = 30 days` */
export function factLabel(fact: Pick<FactRecord, 'entityId' | 'key' | 'value'>): string {
  return `${fact.entityId} · ${fact.key} = ${valueText(fact.value)}`;
}

/** One decision in words; `routine` ones (nothing beyond an episode) may be left unprinted. */
export interface Decision {
  text: string;
  routine: boolean;
}

export function describeObservation(result: ObserveResult): Decision[] {
  if (result.messages.length === 0 && result.episodes.length === 0 && result.duplicates === 0) {
    return [
      {
        text: 'already observed (same message id, from a previous run): nothing written twice',
        routine: true,
      },
    ];
  }
  const lines: string[] = [];
  if (!result.extraction.ok)
    lines.push(`extraction failed (${result.extraction.error}); the message is kept`);

  const previousById = new Map(result.facts.superseded.map((f) => [f.id, f]));
  for (const fact of result.facts.written) {
    const previous = fact.supersedes ? previousById.get(fact.supersedes) : undefined;
    if (previous) {
      const how = fact.metadata.correction === true ? 'correction' : 'update';
      lines.push(
        `superseded: ${factLabel(previous)} → ${valueText(fact.value)} (${how} by ${fact.provenance.principalId ?? 'unknown'}; the old version is kept as history)`,
      );
    } else {
      lines.push(`fact written: ${factLabel(fact)} (confidence ${fact.confidence.toFixed(2)})`);
    }
  }
  for (const fact of result.facts.confirmed) lines.push(`fact confirmed, already known: ${factLabel(fact)}`);
  for (const item of result.review) {
    const p = item.proposal;
    const what =
      item.kind === 'fact'
        ? factLabel({ entityId: String(p.entityId), key: String(p.key), value: p.value ?? null })
        : `${nameOf(p.from)} —${String(p.relation)}→ ${nameOf(p.to)}`;
    lines.push(
      `sent to the review queue (${item.reason.replace('_', ' ')}, confidence ${item.confidence.toFixed(2)}), not to the facts: ${what}`,
    );
  }
  const nodes = new Map<string, NodeRecord>(result.nodes.map((n) => [n.id, n]));
  for (const edge of result.edges) {
    const from = nodes.get(edge.from)?.name ?? edge.from;
    const to = nodes.get(edge.to)?.name ?? edge.to;
    lines.push(`edge added: ${from} —${edge.relation}→ ${to}`);
  }
  if (result.duplicates > 0) {
    lines.push('duplicate of an episode already in memory: not stored twice');
  }
  if (lines.length === 0) {
    return [{ text: 'kept as an episode; nothing in it to store as a fact or relation', routine: true }];
  }
  return lines.map((text) => ({ text, routine: false }));
}

function nameOf(end: JsonValue | undefined): string {
  if (end && typeof end === 'object' && !Array.isArray(end) && typeof end.name === 'string') return end.name;
  return valueText(end ?? null);
}
