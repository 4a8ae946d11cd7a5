// The k best of many scored items without sorting them all: a bounded min-heap.

/** The `k` items with the highest score, best first; equal scores ordered by name ascending. */
export function topK<T>(
  items: Iterable<T>,
  k: number,
  score: (item: T) => number,
  name: (item: T) => string,
): T[] {
  if (k <= 0) return [];
  // heap[0] is the worst kept item.
  const heap: T[] = [];
  const worse = (a: T, b: T): boolean => {
    const difference = score(a) - score(b);
    return difference !== 0 ? difference < 0 : name(a) > name(b);
  };
  const swap = (i: number, j: number): void => {
    const item = heap[i] as T;
    heap[i] = heap[j] as T;
    heap[j] = item;
  };
  const siftDown = (start: number): void => {
    for (let i = start; ;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < heap.length && worse(heap[left] as T, heap[smallest] as T)) smallest = left;
      if (right < heap.length && worse(heap[right] as T, heap[smallest] as T)) smallest = right;
      if (smallest === i) return;
      swap(i, smallest);
      i = smallest;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      for (let i = heap.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (!worse(heap[i] as T, heap[parent] as T)) break;
        swap(i, parent);
        i = parent;
      }
    } else if (worse(heap[0] as T, item)) {
      heap[0] = item;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}
