/**
 * Maximal marginal relevance: picks items one at a time, each time the one with the best
 * `lambda · relevance − (1 − lambda) · (highest similarity to an item already picked)`, so the
 * context is not spent on five wordings of the same thing. Items at or above
 * `duplicateSimilarity` to a picked one are dropped outright as near-duplicates.
 *
 * Similarities are computed lazily: a candidate is compared with the picks it has not met only
 * when it is considered, and candidates are considered best relevance first, stopping as soon as
 * even a candidate similar to nothing could not beat the best score so far (similarity only lowers
 * a score). The picks are the same as comparing every candidate with every pick, in the same
 * order, at a fraction of the comparisons: a candidate never considered is reported in `overflow`,
 * even when it would have been a near-duplicate of a pick.
 */

export interface MmrCandidate {
  id: string;
  /** Higher is better; any scale. */
  relevance: number;
}

export interface MmrResult<T extends MmrCandidate> {
  /** In pick order. `mmr` is the marginal score the item was picked with. */
  selected: Array<{ item: T; mmr: number; maxSimilarity: number }>;
  /** Near-duplicates of a picked item, in the order of the pick they repeat. */
  duplicates: Array<{ item: T; of: string; similarity: number }>;
  /** Not picked because `limit` was reached, best relevance first. */
  overflow: T[];
}

export function mmrSelect<T extends MmrCandidate>(args: {
  items: T[];
  similarity: (a: T, b: T) => number;
  /** 1 = relevance only, 0 = diversity only. */
  lambda: number;
  limit: number;
  duplicateSimilarity: number;
}): MmrResult<T> {
  const pool = [...args.items].sort((a, b) => b.relevance - a.relevance);
  const n = pool.length;
  const top = pool[0]?.relevance ?? 0;
  const scale = top > 0 ? top : 1;
  /** Per candidate: its highest similarity to the picks it was compared with, and how many those are. */
  const maxSim = new Float64Array(n);
  const compared = new Int32Array(n);
  /** Picked or dropped as a near-duplicate. */
  const gone = new Uint8Array(n);
  const picks: number[] = [];
  const selected: MmrResult<T>['selected'] = [];
  const found: Array<{ pick: number; index: number; similarity: number }> = [];

  /** Compares candidate `i` with the picks it has not met; false when it repeats one. */
  const catchUp = (i: number): boolean => {
    for (; compared[i]! < picks.length; compared[i]!++) {
      const pick = compared[i]!;
      const similarity = args.similarity(pool[picks[pick]!]!, pool[i]!);
      if (similarity > maxSim[i]!) maxSim[i] = similarity;
      if (similarity >= args.duplicateSimilarity) {
        found.push({ pick, index: i, similarity });
        gone[i] = 1;
        return false;
      }
    }
    return true;
  };

  let first = 0;
  while (selected.length < args.limit) {
    let best = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let i = first; i < n; i++) {
      if (gone[i]) continue;
      const bound = args.lambda * (pool[i]!.relevance / scale);
      // Later candidates are no more relevant, so none can score above the best any more (a tie
      // goes to the earlier candidate).
      if (best >= 0 && bound <= bestScore) break;
      if (!catchUp(i)) continue;
      const score = bound - (1 - args.lambda) * maxSim[i]!;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    }
    if (best < 0) break;
    gone[best] = 1;
    picks.push(best);
    selected.push({ item: pool[best]!, mmr: bestScore, maxSimilarity: maxSim[best]! });
    while (first < n && gone[first]) first++;
  }

  found.sort((a, b) => a.pick - b.pick || b.index - a.index);
  return {
    selected,
    duplicates: found.map((d) => ({
      item: pool[d.index]!,
      of: pool[picks[d.pick]!]!.id,
      similarity: d.similarity,
    })),
    overflow: pool.filter((_, i) => !gone[i]),
  };
}
