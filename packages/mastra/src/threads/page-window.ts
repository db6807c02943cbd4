import { invalidInput, LIMITS, type Page } from '@strata-memory/core';

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

/** One store read of a listing: `limit` rows from `offset` of its order, and `total` when asked. */
export type ReadRows<T> = (window: { offset: number; limit: number; withTotal: boolean }) => Promise<Page<T>>;

/**
 * One Mastra page read from the store: `page * perPage` rows skipped by the store's query and
 * `perPage` rows read (in calls of at most the store's `maxLimit`; `perPage: false` reads every row),
 * with the store's count of every match as `total`.
 */
export async function readWindow<T>(
  read: ReadRows<T>,
  request: PageRequest,
  defaultPerPage: number,
): Promise<PageOf<T>> {
  const page = request.page ?? 0;
  if (!Number.isInteger(page) || page < 0) throw invalidInput(`page must be an integer >= 0 (got ${page})`);
  const perPage = request.perPage ?? defaultPerPage;
  if (perPage !== false && (!Number.isInteger(perPage) || perPage < 0)) {
    throw invalidInput(`perPage must be an integer >= 0 or false (got ${perPage})`);
  }
  const start = perPage === false ? 0 : page * perPage;
  const wanted = perPage === false ? Number.POSITIVE_INFINITY : perPage;
  const items: T[] = [];
  let total: number | undefined;
  for (;;) {
    const limit = Math.max(1, Math.min(LIMITS.maxLimit, wanted - items.length));
    const rows = await read({ offset: start + items.length, limit, withTotal: total === undefined });
    total ??= rows.total ?? 0;
    if (wanted > 0) items.push(...rows.items);
    if (rows.items.length < limit || items.length >= wanted) break;
  }
  return { items, total, page, perPage, hasMore: start + items.length < total };
}

export type SortDirection = 'ASC' | 'DESC';

export function sortDirection(value: unknown, fallback: SortDirection): SortDirection {
  if (value === undefined) return fallback;
  if (value === 'ASC' || value === 'DESC') return value;
  throw invalidInput(`orderBy.direction must be "ASC" or "DESC" (got ${JSON.stringify(value)})`);
}
