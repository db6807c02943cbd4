/**
 * The `k` best of a stream of scored items, best first: higher score wins, ties go to the lower
 * id so results are deterministic. Keeps a min-heap of size `k`, so a large candidate set is
 * never sorted whole.
 */
export function topK<T extends { id: string; score: number }>(items: Iterable<T>, k: number): T[] {
  const heap: T[] = [];
  // `a` is worse than `b`: lower score, or equal score and higher id.
  const worse = (a: T, b: T) => a.score < b.score || (a.score === b.score && a.id > b.id);
  const swap = (i: number, j: number) => {
    const t = heap[i]!;
    heap[i] = heap[j]!;
    heap[j] = t;
  };
  const up = (start: number) => {
    let i = start;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[parent]!)) break;
      swap(i, parent);
      i = parent;
    }
  };
  const down = (start: number) => {
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && worse(heap[left]!, heap[worst]!)) worst = left;
      if (right < heap.length && worse(heap[right]!, heap[worst]!)) worst = right;
      if (worst === i) return;
      swap(i, worst);
      i = worst;
    }
  };
  if (k <= 0) return [];
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      up(heap.length - 1);
    } else if (worse(heap[0]!, item)) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
