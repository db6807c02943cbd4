/**
 * Time expressions in a query ("last May", "in 2023", "yesterday", "two weeks ago",
 * "on 8 May 2023", "in June") resolved to a window of event time, relative to the clock's now.
 * Calendar boundaries are UTC. No model call: a handful of patterns, checked most specific first.
 */

export interface TimeWindow {
  /** Inclusive start, epoch ms. */
  start: number;
  /** Exclusive end, epoch ms. */
  end: number;
  /** The words of the query that named the window. */
  label: string;
}

const DAY = 86_400_000;

const MONTH_NAMES = [
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
];
const MONTH_ALT =
  '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)';
const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  couple: 2,
  'a couple of': 2,
  'a few': 3,
  few: 3,
  several: 3,
};

function monthIndex(name: string): number {
  const lower = name.toLowerCase();
  return MONTH_NAMES.findIndex((m) => m.startsWith(lower.slice(0, 3)));
}

function utcDay(year: number, month: number, day: number): number {
  return Date.UTC(year, month, day);
}

function startOfDay(t: number): number {
  return Math.floor(t / DAY) * DAY;
}

function dayWindow(t: number, label: string): TimeWindow {
  const start = startOfDay(t);
  return { start, end: start + DAY, label };
}

function monthWindow(year: number, month: number, label: string): TimeWindow {
  return { start: utcDay(year, month, 1), end: utcDay(year, month + 1, 1), label };
}

function yearWindow(year: number, label: string): TimeWindow {
  return { start: utcDay(year, 0, 1), end: utcDay(year + 1, 0, 1), label };
}

/** Monday-based start of the UTC week containing `t`. */
function startOfWeek(t: number): number {
  const day = startOfDay(t);
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  return day - weekday * DAY;
}

function parseCount(word: string): number | undefined {
  const lower = word.toLowerCase().trim();
  if (/^\d+$/.test(lower)) return Number(lower);
  return NUMBER_WORDS[lower];
}

type Rule = { regex: RegExp; resolve: (m: RegExpExecArray, now: number) => TimeWindow | undefined };

const COUNT =
  '(\\d+|a couple of|a few|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple|few|several)';

const RULES: Rule[] = [
  // ISO date: 2023-05-08
  {
    regex: /\b(\d{4})-(\d{2})-(\d{2})\b/,
    resolve: (m) => {
      const t = utcDay(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
      return Number.isNaN(t) ? undefined : dayWindow(t, m[0]);
    },
  },
  // 8 May 2023, 8th of May, 2023
  {
    regex: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_ALT}\\.?,?\\s+(\\d{4})\\b`, 'i'),
    resolve: (m) => dayWindow(utcDay(Number(m[3]), monthIndex(m[2]!), Number(m[1])), m[0]),
  },
  // May 8, 2023
  {
    regex: new RegExp(`\\b${MONTH_ALT}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'i'),
    resolve: (m) => dayWindow(utcDay(Number(m[3]), monthIndex(m[1]!), Number(m[2])), m[0]),
  },
  // May 2023, in May of 2023
  {
    regex: new RegExp(`\\b${MONTH_ALT}\\.?\\s+(?:of\\s+)?(\\d{4})\\b`, 'i'),
    resolve: (m) => monthWindow(Number(m[2]), monthIndex(m[1]!), m[0]),
  },
  // 8 May / May 8 (most recent one not after today)
  {
    regex: new RegExp(
      `\\b(?:(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_ALT}|${MONTH_ALT}\\s+(\\d{1,2})(?:st|nd|rd|th)?)\\b`,
      'i',
    ),
    resolve: (m, now) => {
      const day = Number(m[1] ?? m[4]);
      const month = monthIndex((m[2] ?? m[3])!);
      if (day < 1 || day > 31) return undefined;
      const year = new Date(now).getUTCFullYear();
      const thisYear = utcDay(year, month, day);
      return dayWindow(thisYear <= now ? thisYear : utcDay(year - 1, month, day), m[0]);
    },
  },
  { regex: /\b(?:yesterday|last night)\b/i, resolve: (m, now) => dayWindow(now - DAY, m[0]) },
  {
    regex: /\b(?:today|tonight|this morning|this afternoon|this evening|earlier today)\b/i,
    resolve: (m, now) => dayWindow(now, m[0]),
  },
  {
    regex: /\bthe day before yesterday\b/i,
    resolve: (m, now) => dayWindow(now - 2 * DAY, m[0]),
  },
  // two weeks ago, 3 days ago, a month ago, a couple of years ago
  {
    regex: new RegExp(`\\b${COUNT}\\s+(day|week|month|year)s?\\s+ago\\b`, 'i'),
    resolve: (m, now) => {
      const n = parseCount(m[1]!);
      if (n === undefined) return undefined;
      const unit = m[2]!.toLowerCase();
      if (unit === 'day') return dayWindow(now - n * DAY, m[0]);
      if (unit === 'week') {
        const center = now - n * 7 * DAY;
        return { start: startOfDay(center - 3 * DAY), end: startOfDay(center + 4 * DAY), label: m[0] };
      }
      const date = new Date(now);
      if (unit === 'month') {
        const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - n, 1));
        return monthWindow(target.getUTCFullYear(), target.getUTCMonth(), m[0]);
      }
      return yearWindow(date.getUTCFullYear() - n, m[0]);
    },
  },
  // last week / this week / last weekend / this weekend
  {
    regex: /\b(last|past|this|previous)\s+(week|weekend)\b/i,
    resolve: (m, now) => {
      const thisWeek = startOfWeek(now);
      const base = m[1]!.toLowerCase() === 'this' ? thisWeek : thisWeek - 7 * DAY;
      if (m[2]!.toLowerCase() === 'weekend')
        return { start: base + 5 * DAY, end: base + 7 * DAY, label: m[0] };
      return { start: base, end: base + 7 * DAY, label: m[0] };
    },
  },
  // last month / this month / last year / this year
  {
    regex: /\b(last|past|this|previous)\s+(month|year)\b/i,
    resolve: (m, now) => {
      const date = new Date(now);
      const offset = m[1]!.toLowerCase() === 'this' ? 0 : 1;
      if (m[2]!.toLowerCase() === 'year') return yearWindow(date.getUTCFullYear() - offset, m[0]);
      const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - offset, 1));
      return monthWindow(target.getUTCFullYear(), target.getUTCMonth(), m[0]);
    },
  },
  // last May (the most recent May before this month), this May
  {
    regex: new RegExp(`\\b(last|this|past)\\s+${MONTH_ALT}\\b`, 'i'),
    resolve: (m, now) => {
      const date = new Date(now);
      const month = monthIndex(m[2]!);
      const current = date.getUTCMonth();
      const year = date.getUTCFullYear();
      if (m[1]!.toLowerCase() === 'this') return monthWindow(year, month, m[0]);
      return monthWindow(month < current ? year : year - 1, month, m[0]);
    },
  },
  // last Monday / on Monday (the most recent one before today)
  {
    regex: /\b(?:last|on|this past|past)\s+(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/i,
    resolve: (m, now) => {
      const target = WEEKDAY_NAMES.indexOf(m[1]!.toLowerCase());
      const today = new Date(now).getUTCDay();
      const back = (today - target + 7) % 7 || 7;
      return dayWindow(now - back * DAY, m[0]);
    },
  },
  // in 2023, during 2023, 2023 (a plausible year on its own)
  {
    regex: /\b(?:in|during|of|since|from)?\s*((?:19|20)\d{2})\b/i,
    resolve: (m) => yearWindow(Number(m[1]), m[0].trim()),
  },
  // in June (the most recent June up to this month)
  {
    regex: new RegExp(
      `\\b(?:in|during|over|through|throughout|since|by|early|late|mid)[-\\s]+${MONTH_ALT}\\b`,
      'i',
    ),
    resolve: (m, now) => {
      const date = new Date(now);
      const month = monthIndex(m[1]!);
      const year = date.getUTCFullYear();
      return monthWindow(month <= date.getUTCMonth() ? year : year - 1, month, m[0]);
    },
  },
  {
    regex: /\b(?:recently|lately|these days)\b/i,
    resolve: (m, now) => ({ start: startOfDay(now - 30 * DAY), end: startOfDay(now) + DAY, label: m[0] }),
  },
];

/** The first time window the query names, or undefined. */
export function parseTimeWindow(query: string, now: number): TimeWindow | undefined {
  for (const rule of RULES) {
    const match = rule.regex.exec(query);
    if (!match) continue;
    const window = rule.resolve(match, now);
    if (window && Number.isFinite(window.start) && window.end > window.start) return window;
  }
  return undefined;
}

/**
 * How well an event time matches a window: 1 inside, halving for every window-length (at least a
 * day) outside it.
 */
export function timeMatch(at: number, window: TimeWindow): number {
  if (at >= window.start && at < window.end) return 1;
  const width = Math.max(DAY, window.end - window.start);
  const distance = at < window.start ? window.start - at : at - window.end;
  return 0.5 ** (distance / width);
}
