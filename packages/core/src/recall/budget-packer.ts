/**
 * Packing candidates into a token budget by value per token: a greedy knapsack that takes the
 * densest item first and skips what no longer fits (a smaller, later item may still fit).
 * `tokenPrior` is added to every item's tokens when computing density, so a two-token fragment
 * does not beat a relevant paragraph on density alone.
 */

export interface PackCandidate {
  id: string;
  tokens: number;
  value: number;
}

export interface PackResult<T extends PackCandidate> {
  /** Included items, by value (best first). */
  included: T[];
  /** Items that did not fit. */
  excluded: T[];
  used: number;
}

export function packByValue<T extends PackCandidate>(args: {
  items: T[];
  budget: number;
  tokenPrior?: number;
}): PackResult<T> {
  const prior = args.tokenPrior ?? 0;
  const byDensity = [...args.items].sort(
    (a, b) => b.value / (b.tokens + prior) - a.value / (a.tokens + prior) || b.value - a.value,
  );
  const included: T[] = [];
  const excluded: T[] = [];
  let used = 0;
  for (const item of byDensity) {
    if (item.value > 0 && used + item.tokens <= args.budget) {
      included.push(item);
      used += item.tokens;
    } else excluded.push(item);
  }
  included.sort((a, b) => b.value - a.value);
  return { included, excluded, used };
}

/** Best value first, skipping what no longer fits (the `rank` packing, for ablations). */
export function packByRank<T extends { tokens: number; value: number }>(items: T[], budget: number) {
  const sorted = [...items].sort((a, b) => b.value - a.value);
  const included: T[] = [];
  const excluded: T[] = [];
  let used = 0;
  for (const item of sorted) {
    if (item.value > 0 && used + item.tokens <= budget) {
      included.push(item);
      used += item.tokens;
    } else excluded.push(item);
  }
  return { included, excluded, used };
}
