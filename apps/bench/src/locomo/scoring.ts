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

/** The turns that the first `k` ranked items came from (each item counts all its turns). */
export function turnsOfFirst(ranked: readonly (readonly string[])[], k: number): Set<string> {
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
