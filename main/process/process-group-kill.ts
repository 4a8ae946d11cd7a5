// Killing a whole process group on a schedule (SIGTERM, short grace, SIGKILL), so a tool's
// grandchildren and SIGTERM-ignoring helpers die with it (docs/dispatch.md, "Process-tree kill").
import { groupMembers, hasProcFs, processesWithEnv } from './process-group-proc';
import { sleep } from '../../tools/sdk/values';

/** Grace between SIGTERM and SIGKILL (docs/dispatch.md, "Process-tree kill"). */
export const KILL_GRACE_MS = 500;

/** How long to wait after SIGKILL before giving up (a process stuck in uninterruptible sleep). */
export const KILL_WAIT_MS = 2000;

const POLL_MS = 20;

/** Timings of `killGroup`; the defaults follow docs/dispatch.md, "Process-tree kill". */
export interface KillOptions {
  graceMs?: number;
  killWaitMs?: number;
  pollMs?: number;
}

/** Whether any process of group `pgid` is still running; exited zombies do not count. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    // EPERM means a member exists that we may not signal: alive, though we cannot kill it.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
  // kill(2) also succeeds while only zombies are left, and orphaned zombies wait for init to reap
  // them (up to seconds on some inits), so on Linux look at the members' state instead.
  return hasProcFs() ? groupMembers(pgid).length > 0 : true;
}

/** Sends `signal` to every process of group `pgid`; false when the group is gone or not ours. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Kills group `pgid`: SIGTERM, up to `graceMs` for it to go, then SIGKILL; resolves true once it is gone. */
export async function killGroup(pgid: number, options: KillOptions = {}): Promise<boolean> {
  const { graceMs = KILL_GRACE_MS, killWaitMs = KILL_WAIT_MS, pollMs = POLL_MS } = options;
  if (!Number.isInteger(pgid) || pgid <= 1) throw new RangeError(`not a process group id: ${pgid}`);
  if (!groupAlive(pgid)) return true;
  signalGroup(pgid, 'SIGTERM');
  // A stopped process would sit on SIGTERM until continued.
  signalGroup(pgid, 'SIGCONT');
  if (await waitGone(pgid, graceMs, pollMs)) return true;
  signalGroup(pgid, 'SIGKILL');
  return waitGone(pgid, killWaitMs, pollMs);
}

/** Polls until group `pgid` is gone or `withinMs` passes; resolves whether it is gone. */
export async function waitGone(pgid: number, withinMs: number, pollMs: number = POLL_MS): Promise<boolean> {
  const until = Date.now() + withinMs;
  for (;;) {
    if (!groupAlive(pgid)) return true;
    const left = until - Date.now();
    if (left <= 0) return false;
    await sleep(Math.min(pollMs, left));
  }
}

/** The environment variable every process started for one run carries, with that run's own value. */
export const RUN_MARK_ENV = 'AGENVOY_RUN_MARK';

/**
 * Kills every process still carrying run mark `mark` in its environment: those that left the run's process group
 * (setsid, a double fork into a new session), which a group kill misses. SIGKILL, again until none is left or
 * `killWaitMs` passes (one may fork while it is swept); Linux only (/proc), elsewhere nothing is found. A process
 * that cleared its environment escapes this: the OS sandbox's namespaces are what hold those (docs/dispatch.md).
 */
export async function killMarked(mark: string, options: KillOptions = {}): Promise<boolean> {
  const { killWaitMs = KILL_WAIT_MS, pollMs = POLL_MS } = options;
  const entry = `${RUN_MARK_ENV}=${mark}`;
  const until = Date.now() + killWaitMs;
  for (;;) {
    const left = processesWithEnv(entry);
    if (left.length === 0) return true;
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already, or not ours.
      }
    }
    if (Date.now() > until) return false;
    await sleep(pollMs);
  }
}
