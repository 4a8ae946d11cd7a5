// Whether a process still runs, for tests that check what a kill left behind: a zombie (dead, not yet reaped by its
// parent) counts as gone.
import fs from 'node:fs';

/** True while `pid` exists and is not a zombie. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}
