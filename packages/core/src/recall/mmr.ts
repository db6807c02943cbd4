/**
 * Maximal marginal relevance: picks items one at a time, each time the one with the best
 * `lambda · relevance − (1 − lambda) · (highest similarity to an item already picked)`, so the
 * context is not spent on five wordings of the same thing. Items at or above
 * `duplicateSimilarity` to a picked one are dropped outright as near-duplicates.
 */

export interface MmrCandidate {
  id: string;
  /** Higher is better; any scale. */
  relevance: number;
}

export interface MmrResult<T extends MmrCandidate> {
  /** In pick order. `mmr` is the marginal score the item was picked with. */
  selected: Array<{ item: T; mmr: number; maxSimilarity: number }>;
  /** Near-duplicates of a picked item. */
  duplicates: Array<{ item: T; of: string; similarity: number }>;
  /** Not picked because `limit` was reached. */
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
  const top = pool[0]?.relevance ?? 0;
  const scale = top > 0 ? top : 1;
  const selected: MmrResult<T>['selected'] = [];
  const duplicates: MmrResult<T>['duplicates'] = [];
  const maxSim = new Map<string, { value: number; of?: string }>(pool.map((i) => [i.id, { value: 0 }]));
  while (pool.length > 0 && selected.length < args.limit) {
    let bestIndex = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < pool.length; i++) {
      const item = pool[i]!;
      const sim = maxSim.get(item.id)!.value;
      const score = args.lambda * (item.relevance / scale) - (1 - args.lambda) * sim;
      if (score > bestScore) {
        bestScore = score;
        bestIndex = i;
      }
    }
    const [picked] = pool.splice(bestIndex, 1) as [T];
    selected.push({ item: picked, mmr: bestScore, maxSimilarity: maxSim.get(picked.id)!.value });
    for (let i = pool.length - 1; i >= 0; i--) {
      const item = pool[i]!;
      const sim = args.similarity(picked, item);
      const current = maxSim.get(item.id)!;
      if (sim > current.value) maxSim.set(item.id, { value: sim, of: picked.id });
      if (sim >= args.duplicateSimilarity) {
        duplicates.push({ item, of: picked.id, similarity: sim });
        pool.splice(i, 1);
      }
    }
  }
  return { selected, duplicates, overflow: pool };
}
