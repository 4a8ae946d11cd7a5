// What the OS sandbox adds to a command (docs/security.md): `true` run through the real process port, sandboxed
// (no network, and through the proxy) and unconfined, interleaved in the same run. Goal: ≤ 50 ms added (median).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Confinement } from '../tools/sdk/process-port';
import { ProcessGroups } from '../main/process/process-group';
import { runToolProcess } from '../main/process/process-port';
import { RuntimeSandbox } from '../main/sandbox/runtime-sandbox';
import type { BenchRow } from './report';
import { percentile } from './report';

const BENCH = 'sandbox';
const RUNS = 40;
const TARGET_MS = 50;

/** Medians and p95 of a sandboxed `true` against an unconfined one, and the difference. */
export async function run(): Promise<BenchRow[]> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-bench-sandbox-')));
  const workspace = path.join(root, 'workspace');
  fs.mkdirSync(workspace);
  const sandbox = new RuntimeSandbox({
    agenvoyHome: path.join(root, 'home'),
    homes: [os.homedir()],
    web: () => ({}),
    cacheDir: path.join(root, 'cache'),
  });
  const groups = new ProcessGroups();
  const once = async (confinement: Confinement | null): Promise<number> => {
    const started = performance.now();
    const result = await runToolProcess(
      { command: 'true', shell: true, cwd: workspace, signal: new AbortController().signal, confinement },
      { groups, sandbox },
    );
    if (result.exitCode !== 0) throw new Error(`the bench command failed: ${result.stderr}`);
    return performance.now() - started;
  };
  try {
    const state = await sandbox.state();
    if (state.kind !== 'ready')
      return [{ bench: BENCH, metric: `unavailable: ${state.reason}`, value: 0, unit: '' }];
    const offline: Confinement = { workspace, writable: [workspace], network: 'none' };
    const proxied: Confinement = { ...offline, network: 'proxy' };
    // Warm up: the library loads, the proxy starts, the file cache fills.
    for (const c of [null, offline, proxied]) await once(c);
    const times = { plain: [] as number[], offline: [] as number[], proxied: [] as number[] };
    for (let i = 0; i < RUNS; i++) {
      times.plain.push(await once(null));
      times.offline.push(await once(offline));
      times.proxied.push(await once(proxied));
    }
    const stats = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return { median: percentile(sorted, 50), p95: percentile(sorted, 95) };
    };
    const plain = stats(times.plain);
    const rows: BenchRow[] = [
      { bench: BENCH, metric: 'unconfined `true` (median)', value: round(plain.median), unit: 'ms' },
      { bench: BENCH, metric: 'unconfined `true` (p95)', value: round(plain.p95), unit: 'ms' },
    ];
    for (const [name, xs] of [
      ['no network', times.offline],
      ['proxied network', times.proxied],
    ] as const) {
      const s = stats(xs);
      const added = s.median - plain.median;
      rows.push(
        {
          bench: BENCH,
          metric: `sandboxed, ${name} (median)`,
          value: round(s.median),
          unit: 'ms',
          reference: round(plain.median),
          ratio: s.median / plain.median,
        },
        {
          bench: BENCH,
          metric: `sandboxed, ${name} (p95)`,
          value: round(s.p95),
          unit: 'ms',
          reference: round(plain.p95),
          ratio: s.p95 / plain.p95,
        },
        {
          bench: BENCH,
          metric: `added by the sandbox, ${name} (median)`,
          value: round(added),
          unit: 'ms',
          target: `≤ ${TARGET_MS} ms`,
          met: added <= TARGET_MS,
        },
      );
    }
    return rows;
  } finally {
    await sandbox.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
