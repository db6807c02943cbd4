import type { Clock } from '@strata-memory/core';

/** The clock the engine reads: the harness sets it to each turn's time, then to the question time. */
export interface BenchClock extends Clock {
  set(at: number): void;
}

export function benchClock(start = 0): BenchClock {
  let current = start;
  return {
    now: () => current,
    set(at) {
      current = at;
    },
  };
}
