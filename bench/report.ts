// The row every benchmark prints: a figure, its reference from the same run, and the target.

/** One measured figure. */
export interface BenchRow {
  bench: string;
  metric: string;
  value: number;
  unit: string;
  /** The reference measured in the same run (e.g. a direct call), when there is one. */
  reference?: number;
  /** value / reference, or another ratio the bench defines. */
  ratio?: number;
  /** The target as text, e.g. "≤ 20 µs". */
  target?: string;
  /** Whether the target was met; undefined when there is no target. */
  met?: boolean;
}

/** A benchmark module: `run` measures and returns its rows. */
export interface BenchModule {
  run(): Promise<BenchRow[]>;
}

/** Median and percentile of a sample. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}
