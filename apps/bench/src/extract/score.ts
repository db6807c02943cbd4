import { type CorpusItem, EXTRACTION_KINDS, type ExtractionKind } from './corpus.ts';
import { matches } from './matching.ts';

/**
 * Scores what memory holds after an item's turns against the item's labels. Four kinds of unit are
 * counted: current facts, active graph edges, pending review items and fact histories. Each label
 * pairs with at most one observed unit and each observed unit with at most one label; a label
 * without a partner is a miss (fn), an observed unit without one a false alarm (fp).
 *
 * - fact: entity, key and value each among the label's alternatives (the speaker is `speaker`,
 *   the speaker's team `we`).
 * - edge: relation, and the name or an alias of each end.
 * - review item: the proposed value (for an edge, the target's name).
 * - history: every current fact with two or more versions is a prediction; it matches a label when
 *   entity and key match and its values, oldest first, are the label's values in order.
 */

export const SCORE_UNITS = ['facts', 'edges', 'review', 'history'] as const;
export type ScoreUnit = (typeof SCORE_UNITS)[number];

export interface ObservedFact {
  entity: string;
  key: string;
  value: string;
  /** Every value of the key, oldest first (the current one last). */
  history: string[];
}

export interface ObservedEdge {
  /** Name and aliases of each end. */
  from: string[];
  relation: string;
  to: string[];
}

export interface ItemObservation {
  facts: ObservedFact[];
  edges: ObservedEdge[];
  /** Proposed values of the pending review items. */
  review: string[];
}

export interface Tally {
  tp: number;
  fp: number;
  fn: number;
}

export interface ItemScore {
  id: string;
  kind: ExtractionKind;
  units: Record<ScoreUnit, Tally>;
}

export interface Metrics extends Tally {
  items: number;
  /** null when nothing was predicted (or, for recall, nothing expected). */
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

export interface ScoreSummary {
  overall: Metrics;
  byKind: Record<ExtractionKind, Metrics>;
  byUnit: Record<ScoreUnit, Metrics>;
}

function pair<L, O>(labels: readonly L[], observed: readonly O[], match: (l: L, o: O) => boolean): Tally {
  const used = new Set<number>();
  let tp = 0;
  for (const label of labels) {
    const index = observed.findIndex((o, i) => !used.has(i) && match(label, o));
    if (index >= 0) {
      used.add(index);
      tp++;
    }
  }
  return { tp, fp: observed.length - tp, fn: labels.length - tp };
}

export function scoreItem(item: CorpusItem, observed: ItemObservation): ItemScore {
  const facts = pair(
    item.facts,
    observed.facts,
    (l, o) => matches(l.entity, o.entity) && matches(l.key, o.key) && matches(l.value, o.value),
  );
  const edges = pair(
    item.edges,
    observed.edges,
    (l, o) => matches(l.relation, o.relation) && matches(l.from, o.from) && matches(l.to, o.to),
  );
  const review = pair(item.review, observed.review, (l, o) => matches(l.value, o));
  const history = pair(
    item.history,
    observed.facts.filter((f) => f.history.length >= 2),
    (l, o) =>
      matches(l.entity, o.entity) &&
      matches(l.key, o.key) &&
      l.values.length === o.history.length &&
      l.values.every((value, i) => matches(value, o.history[i]!)),
  );
  return { id: item.id, kind: item.kind, units: { facts, edges, review, history } };
}

const ratio = (num: number, den: number): number | null => (den === 0 ? null : num / den);

export function metrics(tally: Tally, items: number): Metrics {
  const precision = ratio(tally.tp, tally.tp + tally.fp);
  const recall = ratio(tally.tp, tally.tp + tally.fn);
  const f1 =
    precision === null || recall === null
      ? null
      : precision + recall === 0
        ? 0
        : (2 * precision * recall) / (precision + recall);
  return { items, ...tally, precision, recall, f1 };
}

function add(into: Tally, tally: Tally): void {
  into.tp += tally.tp;
  into.fp += tally.fp;
  into.fn += tally.fn;
}

const empty = (): Tally => ({ tp: 0, fp: 0, fn: 0 });

export function summarize(scores: readonly ItemScore[]): ScoreSummary {
  const overall = empty();
  const byKind = new Map(EXTRACTION_KINDS.map((k) => [k, { tally: empty(), items: 0 }]));
  const byUnit = new Map(SCORE_UNITS.map((u) => [u, empty()]));
  for (const score of scores) {
    const kind = byKind.get(score.kind)!;
    kind.items++;
    for (const unit of SCORE_UNITS) {
      add(overall, score.units[unit]);
      add(kind.tally, score.units[unit]);
      add(byUnit.get(unit)!, score.units[unit]);
    }
  }
  return {
    overall: metrics(overall, scores.length),
    byKind: Object.fromEntries(
      EXTRACTION_KINDS.map((k) => [k, metrics(byKind.get(k)!.tally, byKind.get(k)!.items)]),
    ) as Record<ExtractionKind, Metrics>,
    byUnit: Object.fromEntries(SCORE_UNITS.map((u) => [u, metrics(byUnit.get(u)!, scores.length)])) as Record<
      ScoreUnit,
      Metrics
    >,
  };
}
