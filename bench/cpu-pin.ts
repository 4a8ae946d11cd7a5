// Pins this process and every process under it, all their threads, to some CPUs (util-linux's taskset), for a bench
// that wants figures the scheduler does not move: on the 2-CPU VM a call to a stdio server took 70-110 µs depending on
// whether the server woke on the client's CPU or on the idle other one, and which it did changed from run to run.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

// The processes under `root`, from /proc (Linux only).
function descendants(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of parents.get(pid) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

function affinity(pid: number): string {
  // "pid 123's current affinity mask: 3"
  return (
    execFileSync('taskset', ['-p', String(pid)], { encoding: 'utf8' })
      .trim()
      .split(' ')
      .at(-1) ?? ''
  );
}

/**
 * Pins this process tree to `cpus` (a taskset list such as "0"); returns what puts every pinned process back, or
 * null when it cannot pin here (no taskset, not Linux), and then nothing was changed.
 */
export function pinTree(cpus: string): (() => void) | null {
  let pids: number[];
  let before: string[];
  try {
    pids = [process.pid, ...descendants(process.pid)];
    before = pids.map(affinity);
  } catch {
    return null;
  }
  const set = (pid: number, args: string[]) => {
    try {
      execFileSync('taskset', ['-a', '-p', ...args, String(pid)], { stdio: 'ignore' });
    } catch {
      // A process that ended meanwhile has nothing to pin.
    }
  };
  pids.forEach((pid) => set(pid, ['-c', cpus]));
  return () => pids.forEach((pid, i) => set(pid, [before[i] as string]));
}
