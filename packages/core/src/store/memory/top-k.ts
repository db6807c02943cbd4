interface Ranked {
  id: string;
  score: number;
}

/** `a` ranks below `b`: lower score, or equal score and higher id. */
function worse(a: Ranked, b: Ranked): boolean {
  return a.score < b.score || (a.score === b.score && a.id > b.id);
}

/**
 * Keeps the `k` best items offered, in a min-heap of size `k`, so a large candidate set is never
 * sorted whole. Higher score wins; ties go to the lower id so results are deterministic.
 */
export class TopK<T extends Ranked> {
  private readonly heap: T[] = [];
  private readonly k: number;

  constructor(k: number) {
    this.k = Math.max(0, k);
  }

  /**
   * True when an item with this score and id would be kept: callers check it before building the
   * item, so the many candidates that cannot make the cut cost no allocation.
   */
  admits(score: number, id: string): boolean {
    if (this.heap.length < this.k) return this.k > 0;
    const worst = this.heap[0]!;
    return score > worst.score || (score === worst.score && id < worst.id);
  }

  offer(item: T): void {
    const heap = this.heap;
    if (heap.length < this.k) {
      heap.push(item);
      this.up(heap.length - 1);
    } else if (this.k > 0 && worse(heap[0]!, item)) {
      heap[0] = item;
      this.down(0);
    }
  }

  /** The kept items, best first. */
  sorted(): T[] {
    return [...this.heap].sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
  }

  private swap(i: number, j: number): void {
    const t = this.heap[i]!;
    this.heap[i] = this.heap[j]!;
    this.heap[j] = t;
  }

  private up(start: number): void {
    let i = start;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(this.heap[i]!, this.heap[parent]!)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(start: number): void {
    const heap = this.heap;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && worse(heap[left]!, heap[worst]!)) worst = left;
      if (right < heap.length && worse(heap[right]!, heap[worst]!)) worst = right;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }
}

/** The `k` best of a stream of scored items, best first (see `TopK`). */
export function topK<T extends Ranked>(items: Iterable<T>, k: number): T[] {
  const best = new TopK<T>(k);
  for (const item of items) best.offer(item);
  return best.sorted();
}
