// Linux /proc readers: who is in a process group, when a process started, which boot this is.
// Elsewhere (macOS) these return null/empty and callers fall back to what kill(2) can tell.
import fs from 'node:fs';

/** The fields of /proc/<pid>/stat that process-group handling needs. */
export interface ProcStat {
  pid: number;
  /** R, S, D, Z (zombie), X (dead), … */
  state: string;
  ppid: number;
  pgrp: number;
  session: number;
  /** Field 22: start time in clock ticks since boot, kept as text (it can pass 2^53 on long uptimes). */
  startTime: string;
}

/** Whether this system has a Linux-style /proc to read. */
export function hasProcFs(): boolean {
  return fs.existsSync('/proc/self/stat');
}

/** Parses the text of /proc/<pid>/stat; null when it is not in that format. */
export function parseProcStat(text: string): ProcStat | null {
  // comm (field 2) may hold spaces and parentheses, so the fixed fields start after the LAST ')'.
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const pid = Number(text.slice(0, text.indexOf(' ')));
  const rest = text
    .slice(close + 2)
    .trim()
    .split(' ');
  // rest[0] is field 3 (state), so field N is rest[N - 3].
  const [state, ppid, pgrp, session] = rest;
  const startTime = rest[19];
  if (!state || !ppid || !pgrp || !session || !startTime || !Number.isInteger(pid)) return null;
  return { pid, state, ppid: Number(ppid), pgrp: Number(pgrp), session: Number(session), startTime };
}

/** Reads /proc/<pid>/stat; null when the process is gone or there is no /proc. */
export function readProcStat(pid: number): ProcStat | null {
  try {
    return parseProcStat(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** Whether a stat describes a process that has exited (a zombie waiting to be reaped, or dead). */
export function isExited(stat: ProcStat): boolean {
  return stat.state === 'Z' || stat.state === 'X';
}

/** Every process of group `pgid` that has not exited, from /proc; empty when there is no /proc. */
export function groupMembers(pgid: number): ProcStat[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const members: ProcStat[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcStat(Number(entry));
    if (stat && stat.pgrp === pgid && !isExited(stat)) members.push(stat);
  }
  return members;
}

/** This boot's id: start times only compare within one boot. Null without /proc. */
export function bootId(): string | null {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/**
 * The pids of this user's live processes whose environment holds `entry` (`NAME=value`), this process excepted. Empty
 * without /proc. Another user's processes cannot be read and are never listed.
 */
export function processesWithEnv(entry: string): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const needle = Buffer.from(`\0${entry}\0`);
  const found: number[] = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let environ: Buffer;
    try {
      environ = fs.readFileSync(`/proc/${name}/environ`);
    } catch {
      continue;
    }
    // Entries are NUL-terminated; a leading NUL makes the first one match like the others.
    if (Buffer.concat([Buffer.from([0]), environ]).includes(needle)) {
      const stat = readProcStat(Number(name));
      if (stat && !isExited(stat)) found.push(stat.pid);
    }
  }
  return found;
}
