// Prints benchmark rows as a plain table.
import type { BenchRow } from './report';

/** Writes rows to stdout: figure, reference, ratio, target, met. */
export function printRows(rows: BenchRow[]): void {
  const table = rows.map((r) => ({
    bench: r.bench,
    metric: r.metric,
    value: `${r.value} ${r.unit}`,
    reference: r.reference === undefined ? '' : `${r.reference} ${r.unit}`,
    ratio: r.ratio === undefined ? '' : String(r.ratio),
    target: r.target ?? '',
    met: r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  }));
  const keys = Object.keys(table[0] ?? {}) as Array<keyof (typeof table)[number]>;
  const widths = keys.map((k) => Math.max(k.length, ...table.map((row) => row[k].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ');
  process.stdout.write(`${line(keys)}\n${widths.map((w) => '-'.repeat(w)).join('-|-')}\n`);
  for (const row of table) process.stdout.write(line(keys.map((k) => row[k])) + '\n');
}
