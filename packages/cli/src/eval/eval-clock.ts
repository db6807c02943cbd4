import type { Clock } from '@strata-memory/core';

/** The clock a case runs on: it moves only when a turn or action says so. */
export interface EvalClock extends Clock {
  set(time: number): void;
  advance(ms: number): void;
}

export function evalClock(start: number): EvalClock {
  let now = start;
  return {
    now: () => now,
    set(time) {
      now = time;
    },
    advance(ms) {
      now += ms;
    },
  };
}
