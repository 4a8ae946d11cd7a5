// Crash recovery: kill the process groups a previous run recorded and never saw finish (docs/dispatch.md, "Process-tree kill").
//
// Guard against pid reuse: a record holds the leader's start time (/proc/<pid>/stat field 22) and
// the boot id. A group is killed only when
//   - the boot id is the same (start times count from boot), and
//   - the leader is alive in group `pgid` with the same start time, or
//   - the leader is gone and every process left in group `pgid` started no earlier than it.
// The second case holds because a pid stays reserved while any process still uses it as its group
// id, so a reused pgid needs the old group to have emptied first. The residual risk (the old group
// emptied, the pid was reused by another session leader, which then exited leaving children) needs
// an exact pid collision plus that pattern; it is accepted. Without /proc (macOS) nothing can be
// verified, so such records are left alone.
import type { KillOptions } from './process-group-kill';
import { killGroup, killMarked } from './process-group-kill';
import { bootId, groupMembers, hasProcFs, isExited, readProcStat } from './process-group-proc';
import type { GroupRecord } from './process-group-tracker';

/** What recovery did with one recorded group. */
export type LeftoverOutcome =
  | 'killed' // it was still there and is gone now
  | 'survived' // it was ours but did not die (uninterruptible sleep, another user)
  | 'gone' // nothing of it was left
  | 'reused' // the pgid now belongs to someone else
  | 'rebooted' // recorded in an earlier boot: nothing of it can be left
  | 'unverifiable'; // no /proc, or the record lacks a start time

/** The outcome for one record. */
export interface LeftoverResult {
  pgid: number;
  outcome: LeftoverOutcome;
}

/** Kills the groups of `records` that are provably still the ones recorded; one result per record. */
export async function killLeftoverGroups(
  records: readonly GroupRecord[],
  options: KillOptions = {},
): Promise<LeftoverResult[]> {
  return Promise.all(
    records.map(async (record): Promise<LeftoverResult> => {
      const outcome = classifyLeftover(record);
      // Whatever became of the group, its run mark still finds the processes that left it (setsid, a double fork),
      // which the crashed run would have swept: the mark is the run's own random value, so all that carry it are
      // ours (docs/dispatch.md, "Process-tree kill").
      const swept = async (): Promise<boolean> =>
        outcome === 'rebooted' || !record.mark || !MARK.test(record.mark) || killMarked(record.mark, options);
      if (outcome !== 'ours') return { pgid: record.pgid, outcome: (await swept()) ? outcome : 'survived' };
      const gone = await killGroup(record.pgid, options);
      return { pgid: record.pgid, outcome: gone && (await swept()) ? 'killed' : 'survived' };
    }),
  );
}

// Run marks are UUIDs (randomUUID); a damaged record's anything else is not swept.
const MARK = /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/;

/** Decides whether a recorded group is still there and still ours, without touching it. */
export function classifyLeftover(record: GroupRecord): LeftoverOutcome | 'ours' {
  if (!Number.isInteger(record.pgid) || record.pgid <= 1) return 'unverifiable';
  const { startTime } = record;
  if (!hasProcFs() || startTime === null || !/^\d+$/.test(startTime) || !record.bootId) return 'unverifiable';
  if (bootId() !== record.bootId) return 'rebooted';
  // A corrupt record must never make us kill our own group.
  if (record.pgid === process.pid || record.pgid === readProcStat(process.pid)?.pgrp) return 'reused';
  const recorded = BigInt(startTime);
  const leader = readProcStat(record.pgid);
  if (leader && !isExited(leader)) {
    return leader.pgrp === record.pgid && BigInt(leader.startTime) === recorded ? 'ours' : 'reused';
  }
  const members = groupMembers(record.pgid);
  if (members.length === 0) return 'gone';
  return members.every((member) => BigInt(member.startTime) >= recorded) ? 'ours' : 'reused';
}
