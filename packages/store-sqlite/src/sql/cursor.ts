import { invalidInput } from '@strata-memory/core/store';
import type { Clause, SqlValue } from './scope-sql.ts';

/** One column of a listing's sort key. The last column must be unique, so keys never tie. */
export interface SortColumn {
  expr: string;
  direction: 'asc' | 'desc';
}

type KeyValue = string | number;

/**
 * Cursors are opaque to callers: base64url of the listing's name and the last returned row's sort
 * key. A cursor from another listing, or one that was tampered with, fails with `invalid_input`.
 */
export function encodeCursor(listing: string, key: readonly KeyValue[]): string {
  return Buffer.from(JSON.stringify([listing, ...key]), 'utf8').toString('base64url');
}

export function decodeCursor(listing: string, cursor: string, arity: number): KeyValue[] {
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
    decoded.slice(1).every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)));
  if (!valid) throw invalidInput(`cursor is not a cursor of ${listing}: pass back a nextCursor unchanged`);
  return (decoded as KeyValue[]).slice(1);
}

/** Rows strictly after `key` in the order of `columns` (keyset pagination). */
export function afterKeyClause(columns: readonly SortColumn[], key: readonly KeyValue[]): Clause {
  const alternatives: string[] = [];
  const params: SqlValue[] = [];
  for (let i = 0; i < columns.length; i++) {
    const parts: string[] = [];
    for (let j = 0; j < i; j++) {
      parts.push(`${columns[j]!.expr} = ?`);
      params.push(key[j]!);
    }
    parts.push(`${columns[i]!.expr} ${columns[i]!.direction === 'asc' ? '>' : '<'} ?`);
    params.push(key[i]!);
    alternatives.push(`(${parts.join(' AND ')})`);
  }
  return { sql: alternatives.join(' OR '), params };
}

export function orderByClause(columns: readonly SortColumn[]): string {
  return columns.map((c) => `${c.expr} ${c.direction === 'asc' ? 'ASC' : 'DESC'}`).join(', ');
}

export interface PageQuery {
  listing: string;
  columns: readonly SortColumn[];
  limit: number;
  cursor?: string;
}

/** The WHERE addition, ORDER BY and LIMIT of one page (one row more than asked, to know if more follow). */
export function pageClauses(page: PageQuery): { after: Clause | undefined; orderBy: string; limit: number } {
  const after =
    page.cursor === undefined
      ? undefined
      : afterKeyClause(page.columns, decodeCursor(page.listing, page.cursor, page.columns.length));
  return { after, orderBy: orderByClause(page.columns), limit: page.limit + 1 };
}

/** Cuts the extra row off and turns the last row's key into `nextCursor`. */
export function toPage<R, T>(
  page: PageQuery,
  rows: readonly R[],
  keyOf: (row: R) => KeyValue[],
  toItem: (row: R) => T,
): { items: T[]; nextCursor?: string } {
  const items = rows.slice(0, page.limit);
  const last = items[items.length - 1];
  const out = { items: items.map(toItem) };
  return rows.length > page.limit && last !== undefined
    ? { ...out, nextCursor: encodeCursor(page.listing, keyOf(last)) }
    : out;
}
