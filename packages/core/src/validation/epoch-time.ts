import { z } from 'zod/v4';
import { invalidInput } from '../errors/strata-error.ts';

/**
 * Times as Strata stores them: whole epoch milliseconds from 1970 up to the last instant a
 * JavaScript `Date` can hold (8.64e15 ms, the year 275760). A larger number is a valid integer but
 * not a time: it once slipped through and broke every later read that formatted it as a date.
 */
export const MAX_EPOCH_MS = 8.64e15;

/** A stored time: an integer number of epoch milliseconds in `0..MAX_EPOCH_MS`. */
export const epochMsSchema = z
  .number()
  .int()
  .nonnegative()
  .max(MAX_EPOCH_MS, 'must be a time within the JavaScript Date range (at most 8.64e15 ms)');

/** True for an integer epoch time `Date` can represent (from 1970). */
export function isEpochMs(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_EPOCH_MS;
}

// ISO 8601 as `Date.parse` reads it: a date, optionally a time and a zone.
const ISO_TIME =
  /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Epoch ms of an ISO 8601 string, or `undefined` when it is not one or names a day the calendar
 * does not have. `Date.parse('2026-02-30')` rolls over to 2 March; this refuses instead.
 */
export function parseIsoTime(text: string): number | undefined {
  const match = ISO_TIME.exec(text.trim());
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (
    match[4] !== undefined &&
    (Number(match[4]) > 23 || Number(match[5]) > 59 || Number(match[6] ?? 0) > 59)
  ) {
    return undefined;
  }
  const ms = Date.parse(text.trim());
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * Epoch milliseconds from a `Date`, a number of milliseconds, or an ISO 8601 string. Anything
 * outside 1970..275760, an invalid `Date`, a non-ISO string or an impossible calendar date fails
 * with `invalid_input` naming `what`. Fractions of a millisecond are dropped.
 */
export function toEpochMs(value: Date | number | string, what: string): number {
  const ms =
    value instanceof Date ? value.getTime() : typeof value === 'number' ? value : parseIsoTime(value);
  if (ms === undefined || !Number.isFinite(ms) || ms < 0 || ms > MAX_EPOCH_MS) {
    throw invalidInput(
      `${what} must be a valid time from 1970 to the year 275760: a Date, epoch milliseconds, or an ISO 8601 string naming a real calendar day`,
      { value: String(value) },
    );
  }
  return Math.floor(ms);
}
