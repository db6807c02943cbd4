/**
 * Rows kept sorted by (time, id), so a read bounded in time visits only the rows in its window
 * (binary search to the start, then a walk) instead of every row of its scopes.
 */
export class Timeline<R> {
  private readonly rows: R[] = [];
  private readonly timeOf: (row: R) => number;
  private readonly idOf: (row: R) => string;

  constructor(timeOf: (row: R) => number, idOf: (row: R) => string) {
    this.timeOf = timeOf;
    this.idOf = idOf;
  }

  get size(): number {
    return this.rows.length;
  }

  add(row: R): void {
    this.rows.splice(this.lowerBound(this.timeOf(row), this.idOf(row)), 0, row);
  }

  remove(row: R): void {
    const at = this.lowerBound(this.timeOf(row), this.idOf(row));
    if (at < this.rows.length && this.idOf(this.rows[at]!) === this.idOf(row)) this.rows.splice(at, 1);
  }

  /** The rows with `since <= time <= until` (either bound optional), oldest first. */
  *between(since: number | undefined, until: number | undefined): Iterable<R> {
    const start = since === undefined ? 0 : this.lowerBound(since, '');
    for (let i = start; i < this.rows.length; i++) {
      const row = this.rows[i]!;
      if (until !== undefined && this.timeOf(row) > until) return;
      yield row;
    }
  }

  /** The first position whose (time, id) is not below the given one. */
  private lowerBound(time: number, id: string): number {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const row = this.rows[mid]!;
      const t = this.timeOf(row);
      if (t < time || (t === time && this.idOf(row) < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
