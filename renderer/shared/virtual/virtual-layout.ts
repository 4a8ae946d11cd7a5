// Heights and offsets of a long list whose rows have different, measured heights: what a virtualised view renders.

/** The rows to render for a viewport: [start, end) indexes. */
export interface VisibleRange {
  start: number;
  end: number;
}

/** Row heights by key (estimated until measured), prefix offsets computed lazily, and range lookup by binary search. */
export class VirtualLayout {
  private keys: readonly string[] = [];
  private readonly measured = new Map<string, number>();
  private heights = new Float64Array(0);
  // offsets[i] = top of row i; offsets[n] = total height. Valid below `dirtyFrom`.
  private offsets = new Float64Array(1);
  private dirtyFrom = 0;

  constructor(private readonly estimate: number) {}

  /** Number of rows. */
  get count(): number {
    return this.keys.length;
  }

  /** Sets the rows; heights measured earlier are kept by key, so appends and reloads do not re-measure. */
  setKeys(keys: readonly string[]): void {
    if (keys === this.keys) return;
    const previous = this.keys;
    let same = 0;
    while (same < previous.length && same < keys.length && previous[same] === keys[same]) same++;
    this.keys = keys;
    if (this.heights.length !== keys.length) {
      const next = new Float64Array(keys.length);
      next.set(this.heights.subarray(0, Math.min(same, keys.length)));
      this.heights = next;
      const offsets = new Float64Array(keys.length + 1);
      offsets.set(this.offsets.subarray(0, Math.min(same, this.dirtyFrom) + 1));
      this.offsets = offsets;
    }
    for (let i = same; i < keys.length; i++)
      this.heights[i] = this.measured.get(keys[i] as string) ?? this.estimate;
    this.dirtyFrom = Math.min(this.dirtyFrom, same);
  }

  /** Records a row's measured height; returns the change (0 when it was already known). */
  setHeight(index: number, height: number): number {
    const key = this.keys[index];
    if (key === undefined) return 0;
    const old = this.heights[index] as number;
    this.measured.set(key, height);
    if (old === height) return 0;
    this.heights[index] = height;
    this.dirtyFrom = Math.min(this.dirtyFrom, index + 1);
    return height - old;
  }

  /** The top of row `index` (the total height for index = count). */
  offsetOf(index: number): number {
    const i = Math.max(0, Math.min(index, this.keys.length));
    this.settle(i);
    return this.offsets[i] as number;
  }

  /** Height of all rows. */
  totalHeight(): number {
    return this.offsetOf(this.keys.length);
  }

  /** Rows that intersect [scrollTop, scrollTop + viewport], widened by `overscan` rows on each side. */
  range(scrollTop: number, viewport: number, overscan: number): VisibleRange {
    const n = this.keys.length;
    if (n === 0) return { start: 0, end: 0 };
    this.settle(n);
    const first = this.indexAt(Math.max(0, scrollTop));
    const last = this.indexAt(scrollTop + Math.max(viewport, 1));
    return { start: Math.max(0, first - overscan), end: Math.min(n, last + 1 + overscan) };
  }

  // The last row whose top is at or above `y`.
  private indexAt(y: number): number {
    let lo = 0;
    let hi = this.keys.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.offsets[mid] as number) <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  // Prefix sums are recomputed from the first changed row only, and only when someone reads past it.
  private settle(upTo: number): void {
    if (upTo < this.dirtyFrom) return;
    let i = Math.max(1, this.dirtyFrom);
    if (this.dirtyFrom === 0) this.offsets[0] = 0;
    for (; i <= this.keys.length; i++)
      this.offsets[i] = (this.offsets[i - 1] as number) + (this.heights[i - 1] as number);
    this.dirtyFrom = this.keys.length + 1;
  }
}
