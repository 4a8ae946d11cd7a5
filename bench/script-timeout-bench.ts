// How fast a script tool's timeout really stops it: a tool with a 1 s limit that ignores SIGTERM and
// has a grandchild doing the same. Measures deadline → settled outcome, and processes left after it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { ScriptToolSource } from '../main/adapters/script/script-tool-source';
import { manifest, writeToolFolder } from '../main/adapters/script/script-testing';
import { AppLogger } from '../main/core/logger';
import { agenvoyPaths } from '../main/core/paths';
import { groupMembers, ProcessGroups } from '../main/process/process-group';
import { processRunning, readTreePids, stubbornTreeSource } from '../main/process/process-group-testing';
import { Redactor } from '../main/core/redactor';
import { ToolRegistry } from '../main/core/registry';
import { testCore } from '../main/core/testing/test-core';
import type { BenchRow } from './report';

const BENCH = 'script-timeout';
const LIMIT_MS = 1000;
const RUNS = 3;
const TARGET_MS = 1000;

/** Runs the stubborn script tool RUNS times under a 1 s deadline; rows: settle latency and processes left. */
export async function run(): Promise<BenchRow[]> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-bench-timeout-'));
  const groups = new ProcessGroups();
  try {
    const scriptsDir = agenvoyPaths(path.join(tmp, 'home')).globalScripts;
    const pidFile = path.join(tmp, 'pids.json');
    writeToolFolder(scriptsDir, 'stubborn', {
      manifest: manifest('stubborn', { timeout: LIMIT_MS / 1000 }),
      js: stubbornTreeSource(pidFile),
    });
    const registry = new ToolRegistry(() => []);
    const source = new ScriptToolSource({
      registry,
      dirs: [{ dir: scriptsDir, scope: 'global' }],
      log: new AppLogger(null, new Redactor()),
      groups,
      watch: false,
    });
    await source.start();
    const tool = registry.get('script_stubborn')?.spec;
    if (!tool) throw new Error(`bench tool did not load: ${JSON.stringify(source.problems())}`);

    // Through the real dispatcher: its runWithLimit fires the deadline and waits for the tree to die.
    const core = testCore([tool]);
    let startedAt = 0;
    core.dispatcher.on((event) => {
      if (event.type === 'call.started') startedAt = performance.now();
    });
    const latencies: number[] = [];
    let left = 0;
    let outcomes = 0;
    for (let i = 0; i < RUNS; i++) {
      fs.rmSync(pidFile, { force: true });
      const settled = core.dispatcher.dispatch(
        { id: `run${i}`, name: 'script_stubborn', args: {} },
        { chatId: 'bench', workspace: tmp },
      );
      const pids = await readTreePids(pidFile);
      const outcome = await settled;
      const latency = performance.now() - (startedAt + tool.timeoutMs);
      if (outcome.outcome === 'timed_out') outcomes++;
      latencies.push(latency);
      const remaining = new Set([
        pids.leader,
        pids.grandchild,
        ...groupMembers(pids.leader).map((m) => m.pid),
      ]);
      left += [...remaining].filter((pid) => processRunning(pid)).length;
    }
    source.stop();

    const worst = Math.max(...latencies);
    const median = [...latencies].sort((a, b) => a - b)[Math.floor(latencies.length / 2)] as number;
    return [
      row('deadline → settled (worst of runs)', round(worst), 'ms', `≤ ${TARGET_MS} ms`, worst <= TARGET_MS),
      row('deadline → settled (median)', round(median), 'ms', `≤ ${TARGET_MS} ms`, median <= TARGET_MS),
      row('processes left after settle (all runs)', left, 'count', '0', left === 0),
      row('runs that ended timed_out', outcomes, `of ${RUNS}`, `${RUNS}`, outcomes === RUNS),
    ];
  } finally {
    await groups.killAll();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function row(metric: string, value: number, unit: string, target: string, met: boolean): BenchRow {
  return { bench: BENCH, metric, value, unit, target, met };
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await run()) {
    console.log(
      `${r.bench}  ${r.metric}: ${r.value} ${r.unit}  (target ${r.target}: ${r.met ? 'met' : 'NOT met'})`,
    );
  }
}
