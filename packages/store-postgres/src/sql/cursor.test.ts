import { StrataError } from '@strata-memory/core/store';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, pageOf } from './cursor.ts';

describe('cursors', () => {
  it('round-trips a sort key', () => {
    const cursor = encodeCursor('episodes', [1700000000000, 'ep_1']);
    expect(decodeCursor('episodes', cursor, ['number', 'string'])).toEqual([1700000000000, 'ep_1']);
  });

  it('rejects a cursor of another listing, a wrong shape, or garbage with invalid_input', () => {
    const facts = encodeCursor('facts', [1, 'f']);
    for (const [cursor, types] of [
      [facts, ['number', 'string']],
      [encodeCursor('episodes', ['1', 'x']), ['number', 'string']],
      [encodeCursor('episodes', [1]), ['number', 'string']],
      ['%%%not-base64', ['string']],
      [Buffer.from('{"a":1}').toString('base64url'), ['string']],
    ] as const) {
      let error: unknown;
      try {
        decodeCursor('episodes', cursor, types);
      } catch (e) {
        error = e;
      }
      expect(StrataError.hasCode(error, 'invalid_input')).toBe(true);
    }
  });

  it('pages: a cursor only when more rows remain', () => {
    const rows = [1, 2, 3];
    expect(
      pageOf(
        rows,
        2,
        (r) => r * 10,
        (r) => `c${r}`,
      ),
    ).toEqual({ items: [10, 20], nextCursor: 'c2' });
    expect(
      pageOf(
        rows,
        3,
        (r) => r,
        (r) => `c${r}`,
      ),
    ).toEqual({ items: [1, 2, 3] });
  });
});
