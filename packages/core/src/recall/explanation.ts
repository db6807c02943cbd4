import type { ExplainEntry, Explanation, ItemScores } from '../engine/types.ts';

/** Longest item text shown in the table before it is cut with `…`. */
const TEXT_WIDTH = 100;

const SCORE_LABELS: Array<[keyof ItemScores, string]> = [
  ['keyword', 'keyword'],
  ['vector', 'vector'],
  ['fused', 'fused'],
  ['recency', 'recency'],
  ['importance', 'importance'],
  ['access', 'access'],
  ['time', 'time'],
  ['final', 'final'],
];

/** `entries` as returned by `explain()`: `String(result)` is the table of `formatExplanation`. */
export function explanation(entries: ExplainEntry[]): Explanation {
  Object.defineProperty(entries, 'toString', {
    value: () => formatExplanation(entries),
    enumerable: false,
  });
  return entries;
}

/**
 * A table a person can read in a terminal: one row per candidate (in or out, layer, tokens, each
 * score, id), then the line it renders as, how it was found and the rule it cleared (or why it
 * was left out), indented below it.
 *
 * ```
 * in   facts     16 tok  keyword 1.00 · final 0.97  fact_4f…
 *        supplier x · lead time: 30 days (maria, 2026-03-09)
 *        current fact visible at this scope; query relevance 1.00
 *        cleared the relevance bar: query relevance 1.00 ≥ 0.3 of the best fact's
 * ```
 */
export function formatExplanation(entries: readonly ExplainEntry[]): string {
  const included = entries.filter((e) => e.included).length;
  const rows = [`${included} in, ${entries.length - included} out`];
  const layerWidth = Math.max(0, ...entries.map((e) => e.layer.length));
  const tokenWidth = Math.max(0, ...entries.map((e) => String(e.tokens).length));
  for (const e of entries) {
    const scores = e.scores
      ? SCORE_LABELS.filter(([key]) => e.scores![key] !== undefined)
          .map(([key, label]) => `${label} ${e.scores![key]!.toFixed(2)}`)
          .join(' · ')
      : '';
    rows.push(
      [
        e.included ? 'in ' : 'out',
        e.layer.padEnd(layerWidth),
        `${String(e.tokens).padStart(tokenWidth)} tok`,
        ...(scores ? [scores] : []),
        e.id,
      ].join('  '),
    );
    if (e.text) rows.push(`       ${cut(e.text)}`);
    rows.push(`       ${e.reason}`);
    if (e.rule && e.included) rows.push(`       ${e.rule}`);
  }
  return rows.join('\n');
}

function cut(text: string): string {
  return text.length <= TEXT_WIDTH ? text : `${text.slice(0, TEXT_WIDTH - 1)}…`;
}
