import type { Clock } from '@strata-memory/core';

/**
 * The demo's time: core's `Clock` port, moved by the script instead of the wall clock, so
 * sessions happen on different days and scene 7 can jump 100 days ahead in an instant.
 */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export interface SimulatedClock extends Clock {
  /** Jumps to 09:00 UTC, `days` days after the current day. */
  laterDays(days: number): void;
  /** Moves a few minutes on (between messages of one session). */
  laterMinutes(minutes: number): void;
  /** Jumps to an exact moment. */
  set(time: number): void;
  /** `Wed 4 Mar 2026`, the simulated day. */
  today(): string;
}

export function simulatedClock(start: number): SimulatedClock {
  let now = start;
  return {
    now: () => now,
    laterDays(days) {
      now = startOfDay(now) + days * DAY_MS + 9 * 60 * MINUTE_MS;
    },
    laterMinutes(minutes) {
      now += minutes * MINUTE_MS;
    },
    set(time) {
      now = time;
    },
    today: () => formatDay(now),
  };
}

export function startOfDay(time: number): number {
  return Math.floor(time / DAY_MS) * DAY_MS;
}

const dayFormat = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** `Wed 4 Mar 2026` */
export function formatDay(time: number): string {
  return dayFormat.format(new Date(time)).replace(',', '');
}
