import { describe, expect, it } from 'vitest';
import { statsChanges } from './keyword-stats.ts';

describe('statsChanges', () => {
  it('sums episodes and terms per tenant, in one tenant order for every writer', () => {
    const rows = [
      { tenant: 'user:b', docLength: 4 },
      { tenant: 'org:a', docLength: 10 },
      { tenant: 'user:b', docLength: 6 },
    ];
    expect(statsChanges(rows, 1)).toEqual([
      { tenant: 'org:a', documents: 1, terms: 10 },
      { tenant: 'user:b', documents: 2, terms: 10 },
    ]);
    expect(statsChanges(rows, -1)).toEqual([
      { tenant: 'org:a', documents: -1, terms: -10 },
      { tenant: 'user:b', documents: -2, terms: -10 },
    ]);
  });

  it('has nothing to change for no rows', () => {
    expect(statsChanges([], 1)).toEqual([]);
  });
});
