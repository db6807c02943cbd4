/**
 * Text every store can hold exactly as written. PostgreSQL cannot store a NUL character in `text`
 * or `jsonb`, and a lone UTF-16 surrogate has no UTF-8 encoding (drivers would turn it into
 * U+FFFD, silently changing what the user wrote). Core rejects both, so every store accepts the
 * same strings and returns them unchanged.
 */

// With the `u` flag a surrogate pair is one code point, so `\p{Cs}` matches lone surrogates only.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point
const UNSTORABLE = /[\p{Cs}\u0000]/u;

/** Why `text` cannot be stored as written, or `undefined` when it can. */
export function unstorableTextReason(text: string): string | undefined {
  if (!UNSTORABLE.test(text)) return undefined;
  return text.includes('\u0000')
    ? 'must not contain a NUL character (U+0000)'
    : 'must not contain a lone UTF-16 surrogate (not valid Unicode)';
}
