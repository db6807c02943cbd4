import { describe, expect, it } from 'vitest';
import { Timeline } from './timeline.ts';

interface Row {
  id: string;
  at: number;
}

const timeline = (rows: Row[]) => {
  const t = new Timeline<Row>(
    (r) => r.at,
    (r) => r.id,
  );
  for (const r of rows) t.add(r);
  return t;
};

describe('Timeline', () => {
  it('returns the rows inside an inclusive window, ordered by time then id, whatever the insertion order', () => {
    const rows = [5, 1, 3, 3, 9, 7].map((at, i) => ({ id: `r${i}`, at }));
    const t = timeline(rows);
    const expected = rows
      .filter((r) => r.at >= 3 && r.at <= 7)
      .sort((a, b) => a.at - b.at || a.id.localeCompare(b.id))
      .map((r) => r.id);
    expect([...t.between(3, 7)].map((r) => r.id)).toEqual(expected);
    expect([...t.between(undefined, undefined)]).toHaveLength(rows.length);
    expect([...t.between(10, undefined)]).toEqual([]);
    expect([...t.between(undefined, 0)]).toEqual([]);
  });

  it('removes exactly the row asked for, among rows at the same time', () => {
    const rows = ['a', 'b', 'c'].map((id) => ({ id, at: 4 }));
    const t = timeline(rows);
    t.remove(rows[1]!);
    t.remove({ id: 'zz', at: 4 });
    expect([...t.between(4, 4)].map((r) => r.id)).toEqual(['a', 'c']);
    expect(t.size).toBe(2);
  });
});
