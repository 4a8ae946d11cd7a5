// Dispatch overhead vs a direct handler call, and batch fan-out wall time vs the ideal.
import { pathToFileURL } from 'node:url';
import { defineTool } from '../tools/sdk/types';
import { testCore } from '../main/core/testing/test-core';
import type { BenchRow } from './report';
import { percentile } from './report';
import { printRows } from './print';

const noop = defineTool({
  name: 'noop_tool',
  description: 'Do nothing.\nUse when measuring dispatch overhead.',
  parameters: {
    type: 'object',
    properties: { n: { type: 'integer', description: 'counter' } },
    additionalProperties: false,
  },
  flags: { alwaysAllow: true },
  handler: (args) => String(args.n),
});

const wait200 = defineTool({
  name: 'wait_tool',
  description: 'Wait 200 ms.\nUse when measuring fan-out.',
  parameters: { type: 'object', properties: {} },
  flags: { alwaysAllow: true, concurrent: true },
  handler: () => new Promise<string>((resolve) => setTimeout(() => resolve('ok'), 200)),
});

async function perCallMicros(calls: number, fn: (i: number) => unknown): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await fn(i);
  return Number(process.hrtime.bigint() - start) / 1000 / calls;
}

/** Measures dispatch overhead and fan-out. */
export async function run(): Promise<BenchRow[]> {
  const core = testCore([noop, wait200]);
  const scope = { chatId: 'bench', workspace: process.cwd() };
  const dispatch = (i: number) =>
    core.dispatcher.dispatch({ id: String(i), name: 'noop_tool', args: { n: i } }, scope);
  const direct = (i: number) => Promise.resolve(noop.handler({ n: i }, {} as never));
  await perCallMicros(3000, dispatch); // warm-up: JIT and the compiled validator
  await perCallMicros(3000, direct);
  const samples: Array<[number, number]> = [];
  for (let round = 0; round < 5; round++)
    samples.push([await perCallMicros(10_000, dispatch), await perCallMicros(10_000, direct)]);
  const ours = samples.map((s) => s[0]).sort((a, b) => a - b)[2] as number;
  const ref = samples.map((s) => s[1]).sort((a, b) => a - b)[2] as number;
  const rows: BenchRow[] = [
    {
      bench: 'dispatch',
      metric: 'overhead per call (alwaysAllow no-op, median of 5×10k)',
      value: round(ours - ref),
      unit: 'µs',
      reference: round(ref),
      ratio: round(ours / ref),
      target: '≤ 20 µs',
      met: ours - ref <= 20,
    },
  ];
  for (const count of [8, 20]) {
    const ideal = Math.ceil(count / 8) * 200;
    const walls: number[] = [];
    for (let r = 0; r < 3; r++) {
      const calls = Array.from({ length: count }, (_, i) => ({ id: `w${i}`, name: 'wait_tool', args: {} }));
      const start = performance.now();
      await core.executor.run(calls, scope);
      walls.push(performance.now() - start);
    }
    const wall = percentile(
      walls.sort((a, b) => a - b),
      50,
    );
    rows.push({
      bench: 'fan-out',
      metric: `${count} concurrent 200 ms tools (median of 3)`,
      value: round(wall),
      unit: 'ms',
      reference: ideal,
      ratio: round(wall / ideal),
      target: '≤ 1.1 × ideal',
      met: wall / ideal <= 1.1,
    });
  }
  return rows;
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printRows(await run());
