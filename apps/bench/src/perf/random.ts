import { seededRandom as seededNumbers } from '@strata-memory/core/test';

/** The corpus's generator: the same seed gives the same corpus on every machine. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
}

/** Core's seeded generator (Mulberry32), with integer and pick helpers. */
export function seededRandom(seed: number): Random {
  const next = seededNumbers(seed);
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)]! };
}
