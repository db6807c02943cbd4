import { invalidInput } from '../../errors/strata-error.ts';
import type { Page } from '../records.ts';

/** A row's position in a listing: compared element by element, the last element unique (an id). */
export type SortKey = ReadonlyArray<string | number>;
export type Direction = 'asc' | 'desc';

function compareValues(a: string | number, b: string | number): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}

/** Orders two keys, each element in its own direction. */
export function compareKeys(a: SortKey, b: SortKey, directions: readonly Direction[]): number {
  for (let i = 0; i < a.length; i++) {
    const order = compareValues(a[i]!, b[i]!);
    if (order !== 0) return directions[i] === 'desc' ? -order : order;
  }
  return 0;
}

/**
 * Cursors are opaque to callers: base64url of the listing's name and the last returned key. A
 * cursor from another listing, or one that was tampered with, fails with `invalid_input`.
 */
export function encodeCursor(listing: string, key: SortKey): string {
  return Buffer.from(JSON.stringify([listing, ...key]), 'utf8').toString('base64url');
}

export function decodeCursor(listing: string, cursor: string, arity: number): SortKey {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const valid =
    Array.isArray(decoded) &&
    decoded.length === arity + 1 &&
    decoded[0] === listing &&
    decoded.slice(1).every((v) => typeof v === 'string' || typeof v === 'number');
  if (!valid) throw invalidInput(`cursor is not a cursor of ${listing}: pass back a nextCursor unchanged`);
  return (decoded as Array<string | number>).slice(1);
}

export interface PaginateArgs<T> {
  /** Names the listing, so a cursor cannot be replayed against another one. */
  listing: string;
  items: Iterable<T>;
  keyOf: (item: T) => SortKey;
  directions: readonly Direction[];
  limit: number;
  cursor?: string;
  /** Rows of the order to skip before the page (with no cursor). */
  offset?: number;
}

/** Keyset pagination: items strictly after the cursor's key, in key order, `limit` at a time. */
export function paginate<T>(args: PaginateArgs<T>): Page<T> {
  const { keyOf, directions, limit } = args;
  const after =
    args.cursor === undefined ? undefined : decodeCursor(args.listing, args.cursor, directions.length);
  const keyed: Array<{ item: T; key: SortKey }> = [];
  for (const item of args.items) {
    const key = keyOf(item);
    if (after === undefined || compareKeys(key, after, directions) > 0) keyed.push({ item, key });
  }
  keyed.sort((a, b) => compareKeys(a.key, b.key, directions));
  const offset = args.offset ?? 0;
  const page = keyed.slice(offset, offset + limit);
  const last = page[page.length - 1];
  const items = page.map((entry) => entry.item);
  return keyed.length > offset + limit && last
    ? { items, nextCursor: encodeCursor(args.listing, last.key) }
    : { items };
}
