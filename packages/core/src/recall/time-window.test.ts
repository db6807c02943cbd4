import { describe, expect, it } from 'vitest';
import { parseTimeWindow, timeMatch } from './time-window.ts';

// Sunday 1 March 2026, noon UTC.
const now = Date.UTC(2026, 2, 1, 12);
const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

function window(query: string) {
  const w = parseTimeWindow(query, now);
  return (
    w && {
      start: new Date(w.start).toISOString().slice(0, 10),
      end: new Date(w.end).toISOString().slice(0, 10),
      label: w.label,
    }
  );
}

describe('parseTimeWindow', () => {
  it.each([
    ['what happened yesterday?', '2026-02-28', '2026-03-01', 'yesterday'],
    ['anything today', '2026-03-01', '2026-03-02', 'today'],
    ['what did we decide last May', '2025-05-01', '2025-06-01', 'last May'],
    ['budget talks in 2023', '2023-01-01', '2024-01-01', 'in 2023'],
    ['the meeting on 8 May 2023', '2023-05-08', '2023-05-09', '8 May 2023'],
    ['the meeting on May 8, 2023', '2023-05-08', '2023-05-09', 'May 8, 2023'],
    ['the call on 2023-05-08', '2023-05-08', '2023-05-09', '2023-05-08'],
    ['offsite in June', '2025-06-01', '2025-07-01', 'in June'],
    ['what happened in February', '2026-02-01', '2026-03-01', 'in February'],
    ['trip in May 2023', '2023-05-01', '2023-06-01', 'May 2023'],
    ['what was said two weeks ago', '2026-02-12', '2026-02-19', 'two weeks ago'],
    ['3 days ago', '2026-02-26', '2026-02-27', '3 days ago'],
    ['a month ago', '2026-02-01', '2026-03-01', 'a month ago'],
    ['last week', '2026-02-16', '2026-02-23', 'last week'],
    ['last weekend', '2026-02-21', '2026-02-23', 'last weekend'],
    ['last month', '2026-02-01', '2026-03-01', 'last month'],
    ['last year', '2025-01-01', '2026-01-01', 'last year'],
    ['last Friday', '2026-02-27', '2026-02-28', 'last Friday'],
  ])('%s', (query, start, end, label) => {
    expect(window(query)).toEqual({ start, end, label });
  });

  it('returns nothing when the query names no time', () => {
    for (const query of [
      'what are the payment terms?',
      'may I ask about supplier x',
      'net 60 terms',
      'order 12345',
    ]) {
      expect(parseTimeWindow(query, now), query).toBeUndefined();
    }
  });
});

describe('timeMatch', () => {
  const w = { start: day(2023, 5, 1), end: day(2023, 6, 1), label: 'May 2023' };
  it('is 1 inside the window and halves per window-length outside', () => {
    expect(timeMatch(day(2023, 5, 15), w)).toBe(1);
    expect(timeMatch(w.start, w)).toBe(1);
    expect(timeMatch(w.end, w)).toBe(1 * 0.5 ** 0);
    const width = w.end - w.start;
    expect(timeMatch(w.end + width, w)).toBeCloseTo(0.5, 10);
    expect(timeMatch(w.start - 2 * width, w)).toBeCloseTo(0.25, 10);
  });
});
