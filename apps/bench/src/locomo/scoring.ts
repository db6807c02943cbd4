import { invalidInput } from '@strata-memory/core';
import { type Evidence, evidenceSize } from './evidence.ts';

/**
 * Turn recall of one question: the share of its evidence ids found among `found`. Ids that name
 * no turn are never found. Undefined (throws) for a question without evidence: callers skip those.
 */
export function turnRecall(evidence: Evidence, found: ReadonlySet<string>): number {
  const size = evidenceSize(evidence);
  if (size === 0) throw new RangeError('turnRecall: the question has no evidence');
  return evidence.turns.filter((turn) => found.has(turn)).length / size;
}

/**
 * Rejects, with `invalid_input`, a ranking with an item that came from more than one turn: one rank
 * scores one turn at most, so a strategy cannot raise its recall@k by bundling turns into an item.
 * An item from no dataset turn (e.g. a fact without a source) still takes its rank.
 */
export function assertOneTurnPerItem(ranked: readonly (readonly string[])[]): void {
  const rank = ranked.findIndex((turns) => turns.length > 1);
  if (rank >= 0) {
    throw invalidInput(
      `Ranked item ${rank + 1} came from ${ranked[rank]!.length} turns (${ranked[rank]!.join(', ')}); an item scores one turn at most.`,
    );
  }
}

/** The turns that the first `k` ranked items came from; rejects an item from more than one turn. */
export function turnsOfFirst(ranked: readonly (readonly string[])[], k: number): Set<string> {
  assertOneTurnPerItem(ranked);
  return new Set(ranked.slice(0, k).flat());
}

/** Turn recall@k for each k of `ks`. */
export function recallAtKs(
  evidence: Evidence,
  ranked: readonly (readonly string[])[],
  ks: readonly number[],
): Map<number, number> {
  return new Map(ks.map((k) => [k, turnRecall(evidence, turnsOfFirst(ranked, k))]));
}

/** A running mean. */
export class Mean {
  #sum = 0;
  #count = 0;

  add(value: number): void {
    this.#sum += value;
    this.#count += 1;
  }

  get count(): number {
    return this.#count;
  }

  /** NaN when nothing was added. */
  get value(): number {
    return this.#count === 0 ? Number.NaN : this.#sum / this.#count;
  }
}

/** Means keyed by a number (a k, a budget), created on first use. */
export class MeanTable {
  readonly #means = new Map<number, Mean>();

  add(key: number, value: number): void {
    let mean = this.#means.get(key);
    if (!mean) {
      mean = new Mean();
      this.#means.set(key, mean);
    }
    mean.add(value);
  }

  /** `{ "<key>": mean }` in ascending key order. */
  toRecord(): Record<string, number> {
    return Object.fromEntries(
      [...this.#means.entries()].sort(([a], [b]) => a - b).map(([key, mean]) => [String(key), mean.value]),
    );
  }
}
