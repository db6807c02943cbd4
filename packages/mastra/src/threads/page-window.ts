import { invalidInput } from '@strata-memory/core';

/** Mastra's offset pagination: `page` (from 0) and `perPage` (a count, or `false` for everything). */
export interface PageRequest {
  page?: number | undefined;
  perPage?: number | false | undefined;
}

export interface PageOf<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number | false;
  hasMore: boolean;
}

/** One page of `items` (already filtered and sorted), with Mastra's pagination fields. */
export function pageOf<T>(items: readonly T[], request: PageRequest, defaultPerPage: number): PageOf<T> {
  const page = request.page ?? 0;
  if (!Number.isInteger(page) || page < 0) throw invalidInput(`page must be an integer >= 0 (got ${page})`);
  const perPageInput = request.perPage;
  if (perPageInput !== undefined && perPageInput !== false) {
    if (!Number.isInteger(perPageInput) || perPageInput < 0) {
      throw invalidInput(`perPage must be an integer >= 0 or false (got ${perPageInput})`);
    }
  }
  if (perPageInput === false) {
    return { items: [...items], total: items.length, page, perPage: false, hasMore: false };
  }
  const perPage = perPageInput ?? defaultPerPage;
  const offset = page * perPage;
  const slice = items.slice(offset, offset + perPage);
  return { items: slice, total: items.length, page, perPage, hasMore: offset + slice.length < items.length };
}

export type SortDirection = 'ASC' | 'DESC';

export function sortDirection(value: unknown, fallback: SortDirection): SortDirection {
  if (value === undefined) return fallback;
  if (value === 'ASC' || value === 'DESC') return value;
  throw invalidInput(`orderBy.direction must be "ASC" or "DESC" (got ${JSON.stringify(value)})`);
}
