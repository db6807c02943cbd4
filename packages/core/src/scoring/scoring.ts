/**
 * Scoring shared by recall and consolidation, so "how much an episode is worth now" means the
 * same thing in both.
 */

const DAY_MS = 86_400_000;

/** 1 for now, 0.5 after one half-life, → 0 with age. Future times count as now. */
export function recencyWeight(at: number, now: number, halfLifeDays: number): number {
  const ageDays = Math.max(0, now - at) / DAY_MS;
  return 0.5 ** (ageDays / halfLifeDays);
}

/** Diminishing returns on access: 0 for never, → 1 for often. */
export function accessWeight(accessCount: number): number {
  return 1 - 1 / (1 + Math.log1p(Math.max(0, accessCount)));
}

/** What an episode is worth keeping, 0..1: importance, decayed by age, lifted by use. */
export function retentionValue(
  episode: { importance: number; occurredAt: number; accessCount: number; lastAccessedAt?: number },
  now: number,
  halfLifeDays: number,
): number {
  const lastTouched = Math.max(episode.occurredAt, episode.lastAccessedAt ?? 0);
  const decayed = episode.importance * recencyWeight(lastTouched, now, halfLifeDays);
  return Math.min(1, decayed + 0.25 * accessWeight(episode.accessCount) * episode.importance);
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** `v` scaled to length 1 (all zeros when it has none), so that cosines become plain dot products. */
export function unitVector(v: readonly number[]): Float64Array {
  const out = new Float64Array(v.length);
  let squares = 0;
  for (let i = 0; i < v.length; i++) squares += v[i]! * v[i]!;
  if (squares === 0) return out;
  const scale = 1 / Math.sqrt(squares);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * scale;
  return out;
}

/** Dot product of two vectors of one length (of unit vectors: their cosine). */
export function dotProduct(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}
