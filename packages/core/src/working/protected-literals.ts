/**
 * Protected literals: the numbers, amounts, dates and proper names a summary must carry word for
 * word. Finding them and checking a summary against them are both deterministic, so the fidelity
 * guard never depends on a model.
 */

export type LiteralKind = 'amount' | 'number' | 'date' | 'name';

export interface ProtectedLiteral {
  text: string;
  kind: LiteralKind;
}

const MONTHS =
  'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec';
const WEEKDAYS = 'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday';
const CURRENCY_SYMBOL = '[$€£¥₹]';
const CURRENCY_CODE = 'USD|EUR|GBP|JPY|CHF|CAD|AUD|INR|CNY';
const MAGNITUDE = '(?:\\s?(?:k|K|m|M|bn|mn|million|billion|thousand|trillion)\\b)?';
const NUMBER = '\\d+(?:[.,]\\d+)*';

const PATTERNS: Array<{ kind: LiteralKind; regex: RegExp }> = [
  {
    kind: 'amount',
    regex: new RegExp(
      `(?:${CURRENCY_SYMBOL}\\s?${NUMBER}${MAGNITUDE}|\\b(?:${CURRENCY_CODE})\\s?${NUMBER}${MAGNITUDE}|\\b${NUMBER}${MAGNITUDE}\\s?(?:${CURRENCY_CODE}|dollars|euros|pounds)\\b|\\b${NUMBER}\\s?%|\\b${NUMBER}\\s(?:percent|per cent)\\b)`,
      'g',
    ),
  },
  {
    kind: 'date',
    regex: new RegExp(
      [
        '\\b\\d{4}-\\d{2}-\\d{2}(?:[T ]\\d{2}:\\d{2}(?::\\d{2})?)?\\b',
        '\\b\\d{1,2}/\\d{1,2}/\\d{2,4}\\b',
        `\\b\\d{1,2}(?:st|nd|rd|th)?\\s(?:of\\s)?(?:${MONTHS})\\.?(?:,?\\s\\d{4})?\\b`,
        `\\b(?:${MONTHS})\\.?\\s\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s\\d{4})?\\b`,
        `\\b(?:${MONTHS})\\s\\d{4}\\b`,
        `\\b(?:${WEEKDAYS})\\b`,
        '\\b\\d{1,2}:\\d{2}(?:\\s?[ap]\\.?m\\.?)?',
        '\\b\\d{1,2}\\s?[ap]\\.?m\\.?(?=\\W|$)',
      ].join('|'),
      'g',
    ),
  },
  // Codes and identifiers that hold digits: INV-2024-001, PO7781, A4.
  {
    kind: 'number',
    regex: /\b(?=[\p{L}\d_/-]*\d)[\p{L}\d]+(?:[-_/][\p{L}\d]+)+\b|\b\p{L}+\d[\p{L}\d]*\b/gu,
  },
  { kind: 'number', regex: new RegExp(`(?<![\\p{L}\\d])${NUMBER}(?![\\p{L}\\d])`, 'gu') },
];

/** Capitalised words that start sentences or are pronouns, not names. */
const NOT_NAMES = new Set(
  (
    'I Im Ive Id Ill A An The This That These Those It Its We Our Us You Your He She His Her They Their Them ' +
    'My Me Mine Yes No Not Ok Okay Sure Thanks Thank Hi Hello Hey Please And But Or So If When Then Also Just ' +
    'Well Oh Great Good Nice Cool Wow What Who Whom Whose Which Where Why How Let Lets There Here Do Does Did ' +
    'Is Are Was Were Be Been Can Could Would Should Will Shall May Might Must Have Has Had Maybe Sorry Right ' +
    'All Any Some Every Each Both Either Neither None One Two After Before Since Until While For From To In ' +
    'On At By With Without About As Of Into Over Under Today Tomorrow Yesterday Tonight Now Still Yeah Yep Nope'
  ).split(' '),
);

const MONTH_OR_DAY = new RegExp(`^(?:${MONTHS}|${WEEKDAYS})$`);

/** Every protected literal in `text`, in order of appearance, without overlaps (longest wins). */
export function findProtectedLiterals(text: string): ProtectedLiteral[] {
  const spans: Array<{ start: number; end: number; kind: LiteralKind }> = [];
  for (const { kind, regex } of PATTERNS) {
    for (const match of text.matchAll(regex)) {
      const raw = match[0];
      const trimmed = raw.replace(/[.,]+$/, '');
      if (trimmed.length === 0) continue;
      spans.push({ start: match.index, end: match.index + trimmed.length, kind });
    }
  }
  for (const span of nameSpans(text)) spans.push({ ...span, kind: 'name' });
  spans.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const out: ProtectedLiteral[] = [];
  let coveredUntil = -1;
  for (const span of spans) {
    if (span.start < coveredUntil) continue;
    out.push({ text: text.slice(span.start, span.end), kind: span.kind });
    coveredUntil = span.end;
  }
  return out;
}

/**
 * Proper names: runs of capitalised words (with `of`, `de`, `van`, `&` inside a run). A single
 * capitalised word at the start of a sentence counts only if it also appears capitalised
 * mid-sentence somewhere in `text`.
 */
function nameSpans(text: string): Array<{ start: number; end: number }> {
  const word = /[\p{Lu}][\p{L}\p{M}'’-]*/gu;
  const candidates: Array<{ start: number; end: number; words: string[]; sentenceStart: boolean }> = [];
  let current: { start: number; end: number; words: string[]; sentenceStart: boolean } | undefined;
  for (const match of text.matchAll(word)) {
    const start = match.index;
    const token = match[0].replace(/['’]s$/, '').replace(/[-'’]+$/, '');
    const clean = token.replace(/['’-]/g, '');
    const prev = start > 0 ? text[start - 1]! : '';
    const next = text.slice(start + match[0].length, start + match[0].length + 1);
    // Inside a word (camelCase) or part of a code (INV-2024, PO7781): codes are matched as numbers.
    if (/[\p{L}\p{N}]/u.test(prev) || /\d/.test(next) || /-$/.test(match[0])) {
      if (current) candidates.push(current);
      current = undefined;
      continue;
    }
    const isName = !NOT_NAMES.has(clean) && !MONTH_OR_DAY.test(clean);
    const gap = current ? text.slice(current.end, start) : '';
    if (current && /^(?:\s|\s(?:of|de|van|von|der|del|la|&)\s)$/u.test(gap) && isName) {
      current.end = start + token.length;
      current.words.push(clean);
      continue;
    }
    if (current) candidates.push(current);
    current = isName
      ? { start, end: start + token.length, words: [clean], sentenceStart: atSentenceStart(text, start) }
      : undefined;
  }
  if (current) candidates.push(current);
  const midSentence = new Set(candidates.filter((c) => !c.sentenceStart).map((c) => c.words[0]!));
  return candidates.filter((c) => c.words.length > 1 || !c.sentenceStart || midSentence.has(c.words[0]!));
}

function atSentenceStart(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 4), index);
  return index === 0 || /(?:^|[.!?:;\n]["'”’)]?)\s*$/u.test(before) || /^\s*$/.test(text.slice(0, index));
}

/** Words that, right before a literal, turn an exact value into an approximate one. */
const HEDGE_BEFORE =
  /(?:approximately|approx\.?|about|around|roughly|nearly|almost|circa|ca\.|some|close to|just over|just under|over|under|up to|at least|at most|more than|less than|fewer than|upwards of|an estimated|estimated|~|≈|±)\s*$/iu;
const HEDGE_AFTER = /^(?:\s*(?:or so|or more|or less|give or take|ish|\+)|-ish)/iu;

/**
 * Occurrences of `literal` in `text` as a whole token (not part of a longer number or word), as
 * indexes into `text` with runs of whitespace folded to one space (see `foldSpaces`).
 */
function occurrences(text: string, literal: string): number[] {
  const haystack = foldSpaces(text);
  const needle = literal.replace(/\s+/g, ' ');
  const out: number[] = [];
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack.slice(at + needle.length, at + needle.length + 2);
    if (before !== undefined && WORD_CHAR.test(before)) continue;
    if (after.length > 0 && (WORD_CHAR.test(after[0]!) || /^[.,]\p{N}/u.test(after))) continue;
    out.push(at);
  }
  return out;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
let lastFolded: { text: string; folded: string } | undefined;

/** `text` with each run of whitespace as one space (the last result is memoised: checks repeat on one summary). */
function foldSpaces(text: string): string {
  if (lastFolded?.text !== text) lastFolded = { text, folded: text.replace(/\s+/g, ' ') };
  return lastFolded.folded;
}

/** The qualifier around the occurrence of `literal` at `index` (an index from `occurrences`). */
function hedgeAround(text: string, index: number, literal: string): string | undefined {
  const folded = foldSpaces(text);
  const length = literal.replace(/\s+/g, ' ').length;
  const before = folded.slice(Math.max(0, index - 24), index);
  const after = folded.slice(index + length, index + length + 16);
  const b = HEDGE_BEFORE.exec(before);
  if (b) return b[0].trim().toLowerCase();
  const a = HEDGE_AFTER.exec(after);
  return a ? a[0].trim().toLowerCase() : undefined;
}

export interface FidelityIssue {
  literal: string;
  problem: 'missing' | 'hedged';
  /** For `hedged`: the qualifier the summary put on the literal. */
  hedge?: string;
}

/**
 * Checks that every literal appears in `summary` word for word and that no occurrence carries a
 * qualifier ("approximately", "about", "or so") the source text did not put on it.
 */
export function checkFidelity(args: {
  summary: string;
  literals: string[];
  sources: string[];
}): FidelityIssue[] {
  const issues: FidelityIssue[] = [];
  for (const literal of new Set(args.literals)) {
    const found = occurrences(args.summary, literal);
    if (found.length === 0) {
      issues.push({ literal, problem: 'missing' });
      continue;
    }
    if (/^\p{Lu}/u.test(literal) && !/\d/.test(literal)) continue; // names take no hedges
    const hedges = found
      .map((index) => hedgeAround(args.summary, index, literal))
      .filter((h) => h !== undefined);
    if (hedges.length === 0) continue;
    // Hedged in the summary: fine only if the source put the same qualifier on it.
    const sourceHedges = new Set<string>();
    for (const source of args.sources) {
      for (const index of occurrences(source, literal)) {
        const hedge = hedgeAround(source, index, literal);
        if (hedge) sourceHedges.add(hedge);
      }
    }
    const added = hedges.find((h) => !sourceHedges.has(h));
    if (added) issues.push({ literal, problem: 'hedged', hedge: added });
  }
  return issues;
}

/** True when `literal` appears in `text` as a whole token. */
export function containsLiteral(text: string, literal: string): boolean {
  return occurrences(text, literal).length > 0;
}
