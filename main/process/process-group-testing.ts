// Test and bench helpers for process trees: scripts that misbehave on purpose, and ways to check
// that every process of a tree is gone.
import fs from 'node:fs';
import { isExited, readProcStat } from './process-group-proc';

/** Whether `pid` is a running process (a zombie waiting to be reaped is not). */
export function processRunning(pid: number): boolean {
  const stat = readProcStat(pid);
  if (stat) return !isExited(stat);
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` every 20 ms until it is true; rejects after `withinMs`. */
export async function waitFor(check: () => boolean, withinMs: number, what = 'condition'): Promise<void> {
  const until = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out after ${withinMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether kill(-pgid, 0) says the group is gone (ESRCH): no process, not even a zombie, is left. */
export function groupVanished(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Node source of a stubborn process tree: it ignores SIGTERM, starts a grandchild that ignores SIGTERM
 * too and shares its stdout, writes `{"leader": pid, "grandchild": pid}` to `pidFile`, and then
 * waits forever (or exits at once with `exitAfterSpawn`, leaving the grandchild behind).
 */
export function stubbornTreeSource(pidFile: string, options: { exitAfterSpawn?: boolean } = {}): string {
  // The grandchild says it is ready only once its SIGTERM handler is in place.
  const grandchild =
    "process.on('SIGTERM', () => {}); require('node:fs').writeFileSync(process.argv[1], 'ready'); setInterval(() => {}, 1000);";
  return `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
process.on('SIGTERM', () => {});
const file = ${JSON.stringify(pidFile)};
const child = spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}, file + '.gc'], { stdio: ['ignore', 'inherit', 'inherit'] });
const wait = setInterval(() => {
  if (!fs.existsSync(file + '.gc')) return;
  clearInterval(wait);
  fs.writeFileSync(file + '.tmp', JSON.stringify({ leader: process.pid, grandchild: child.pid }));
  fs.renameSync(file + '.tmp', file);
  ${options.exitAfterSpawn ? 'process.exit(0);' : 'setInterval(() => {}, 1000);'}
}, 10);
`;
}

/** Reads the pid file `stubbornTreeSource` writes, once it exists. */
export async function readTreePids(
  pidFile: string,
  withinMs = 10_000,
): Promise<{ leader: number; grandchild: number }> {
  await waitFor(() => fs.existsSync(pidFile), withinMs, `pid file ${pidFile}`);
  return JSON.parse(fs.readFileSync(pidFile, 'utf8')) as { leader: number; grandchild: number };
}
