import { invalidInput } from '@strata-memory/core/store';

/** A row's position in a listing: the values of its ORDER BY columns, the last one unique. */
export type SortKey = ReadonlyArray<string | number>;

/**
 * Opaque keyset cursors: base64url of the listing's name and the last returned row's sort key.
 * A cursor from another listing, or one that was altered, fails with `invalid_input`.
 */
export function encodeCursor(listing: string, key: SortKey): string {
  return Buffer.from(JSON.stringify([listing, ...key]), 'utf8').toString('base64url');
}

export function decodeCursor(
  listing: string,
  cursor: string,
  types: ReadonlyArray<'string' | 'number'>,
): SortKey {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const valid =
    Array.isArray(decoded) &&
    decoded.length === types.length + 1 &&
    decoded[0] === listing &&
    types.every((type, i) =>
      type === 'number' ? Number.isSafeInteger(decoded[i + 1]) : typeof decoded[i + 1] === 'string',
    );
  if (!valid) throw invalidInput(`cursor is not a cursor of ${listing}: pass back a nextCursor unchanged`);
  return (decoded as Array<string | number>).slice(1);
}

/**
 * Splits a page fetched with `LIMIT limit + 1`: at most `limit` rows, and a cursor after the last
 * one when more rows remain.
 */
export function pageOf<R, T>(
  rows: R[],
  limit: number,
  toItem: (row: R) => T,
  cursorOf: (row: R) => string,
): { items: T[]; nextCursor?: string } {
  const page = rows.slice(0, limit);
  const items = page.map(toItem);
  const last = page[page.length - 1];
  return rows.length > limit && last !== undefined ? { items, nextCursor: cursorOf(last) } : { items };
}
