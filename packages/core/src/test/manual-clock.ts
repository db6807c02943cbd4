import type { Clock } from '../ports/ports.ts';

export interface ManualClock extends Clock {
  set(time: number | Date | string): void;
  advance(ms: number): void;
  advanceDays(days: number): void;
}

/** A clock that only moves when told to. */
export function manualClock(start: number | Date | string = '2026-01-01T09:00:00Z'): ManualClock {
  let current = new Date(start).getTime();
  return {
    now: () => current,
    set(time) {
      current = new Date(time).getTime();
    },
    advance(ms) {
      current += ms;
    },
    advanceDays(days) {
      current += days * 86_400_000;
    },
  };
}
