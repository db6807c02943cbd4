import fc from 'fast-check';

/**
 * Scope ids built to trip a driver that compares ids loosely: SQL wildcards (`%`, `_`), separators a
 * key might be joined with (`:`, `/`, `.`), quotes and backslashes, letters with case twins,
 * composed and decomposed accents, fullwidth letters (NFKC twins of ASCII) and an astral emoji. No
 * control characters or lone surrogates (those are invalid ids).
 */
const UNITS = [
  'a',
  'A',
  'b',
  'B',
  'é', // U+00E9, composed
  'e\u0301', // e + combining acute: the decomposed twin of é
  'ａ', // fullwidth a (NFKC: a)
  'Ａ',
  'ß', // upper-cases to SS
  'İ', // lower-cases to i + combining dot
  ':',
  '/',
  '%',
  '_',
  '.',
  '*',
  "'",
  '"',
  '\\',
  ' ',
  '-',
  '😀',
] as const;

/** A short id made of the units above. */
export const baseId = fc.string({ unit: fc.constantFrom(...UNITS), minLength: 1, maxLength: 4 });

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const fullwidth = (s: string) =>
  s.replace(/[!-~]/g, (c) => String.fromCodePoint((c.codePointAt(0) ?? 0) + 0xfee0));

/** The ways a twin id differs from the original. */
export const TWIN_KINDS = ['case', 'unicode', 'width', 'prefix', 'wildcard', 'separator', 'quote'] as const;
export type TwinKind = (typeof TWIN_KINDS)[number];

const swapCase = (s: string) =>
  [...s].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');

/** Candidates for each kind of twin, most telling first. */
function candidates(id: string, kind: TwinKind): string[] {
  switch (kind) {
    case 'case':
      return [id.toUpperCase(), id.toLowerCase(), swapCase(id)];
    case 'unicode':
      return [id.normalize('NFD'), id.normalize('NFC'), id.normalize('NFKC'), `${id}\u0301`];
    case 'width':
      return [fullwidth(id), id.normalize('NFKC'), `${id}ａ`];
    case 'prefix':
      return [`${id}a`, id.slice(0, -1), `${id}${id}`];
    case 'wildcard':
      // What a LIKE pattern built from the id would match: `_` is any one character, `%` any run.
      return [
        '_'.repeat(id.length),
        '%',
        `${id}%`,
        id.replaceAll('_', '%'),
        id.replaceAll('%', '_'),
        `${id}_`,
      ];
    case 'separator':
      return [id.replaceAll(':', '/'), id.replaceAll('/', ':'), `${id}:`, `/${id}`, `${id}.`];
    case 'quote':
      return [`'${id}'`, `${id}\\`, `${id} `, `"${id}`, `${id}'`];
  }
}

/**
 * An id a sloppy comparison would confuse with `id` in the way `kind` names, different from it as
 * a string (the `n`th that is), or undefined when no candidate of that kind differs.
 */
export function twinOf(id: string, kind: TwinKind, n: number): string | undefined {
  const out = candidates(id, kind).filter(
    (c) =>
      // biome-ignore lint/suspicious/noControlCharactersInRegex: ids never hold control characters
      c.length > 0 && c !== id && !LONE_SURROGATE.test(c) && !/[\u0000-\u001f\u007f]/.test(c),
  );
  return out.length === 0 ? undefined : out[n % out.length];
}
