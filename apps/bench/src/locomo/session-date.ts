import { invalidInput } from '@strata-memory/core';

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;

const SESSION_DATE = /^(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})$/i;

function monthIndex(name: string): number {
  const lower = name.toLowerCase();
  // Full names, or an unambiguous prefix of at least three letters ("Sept", "Jan").
  return lower.length >= 3 ? MONTHS.findIndex((month) => month.startsWith(lower)) : -1;
}

/**
 * Parses a LoCoMo session date such as `1:56 pm on 8 May, 2023` into epoch milliseconds (UTC:
 * the dataset gives no time zone, and only the order and spacing of dates matter).
 * Throws `invalid_input` for anything else, including impossible dates (`31 April`).
 */
export function parseSessionDate(text: string): number {
  const match = SESSION_DATE.exec(text.trim());
  if (!match) {
    throw invalidInput(`Unrecognised session date "${text}": expected e.g. "1:56 pm on 8 May, 2023".`, {
      value: text,
    });
  }
  const [, hourText, minuteText, meridiem, dayText, monthText, yearText] = match;
  const hour12 = Number(hourText);
  const minute = Number(minuteText);
  const day = Number(dayText);
  const year = Number(yearText);
  const month = monthIndex(monthText!);
  if (hour12 < 1 || hour12 > 12 || minute > 59 || month < 0 || day < 1) {
    throw invalidInput(`Impossible session date "${text}".`, { value: text });
  }
  const hour = (hour12 % 12) + (meridiem!.toLowerCase() === 'p' ? 12 : 0);
  const at = Date.UTC(year, month, day, hour, minute);
  if (new Date(at).getUTCDate() !== day) {
    throw invalidInput(`Impossible session date "${text}": ${monthText} has no day ${day}.`, { value: text });
  }
  return at;
}
