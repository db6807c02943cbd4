/**
 * The p-th percentile (0..100) of `values` by linear interpolation between closest ranks (the
 * method of numpy's default). NaN for no values.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile: p must be in 0..100 (got ${p})`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const weight = rank - low;
  return sorted[low]! * (1 - weight) + sorted[high]! * weight;
}

export interface LatencySummary {
  p50: number;
  p95: number;
}

export function latencySummary(valuesMs: readonly number[]): LatencySummary {
  return { p50: percentile(valuesMs, 50), p95: percentile(valuesMs, 95) };
}
