// Every live process group this process started, so quitting kills them all and persistence can
// record them for crash recovery (docs/dispatch.md, "Process-tree kill").
import { Emitter } from '../core/emitter';
import { bootId, readProcStat } from './process-group-proc';

/** What is recorded of a live group: enough to find it again after a crash, and to tell pid reuse apart. */
export interface GroupRecord {
  /** The group id, which is the leader's pid (children are started detached, i.e. setsid). */
  pgid: number;
  /** The command line, for logs. */
  command: string;
  /** Epoch ms at spawn. */
  startedAt: number;
  /** The leader's start time from /proc/<pid>/stat (clock ticks since boot); null without /proc. */
  startTime: string | null;
  /** /proc/sys/kernel/random/boot_id at spawn; null without /proc. */
  bootId: string | null;
  /**
   * The run mark every process of the group inherits (RUN_MARK_ENV), so recovery also finds those that left it
   * (setsid); null when none was given (records of an older version).
   */
  mark?: string | null;
}

/** A group started or finished. */
export type GroupChange = { type: 'added'; group: GroupRecord } | { type: 'removed'; group: GroupRecord };

/** Builds the record of a group whose leader has just been spawned. */
export function groupRecord(pgid: number, command: string, mark: string | null = null): GroupRecord {
  return {
    pgid,
    command,
    startedAt: Date.now(),
    startTime: readProcStat(pgid)?.startTime ?? null,
    bootId: bootId(),
    mark,
  };
}

/** Tracker of the live process groups this process started. */
export class ProcessGroups {
  private readonly live = new Map<number, { record: GroupRecord; kill: () => Promise<unknown> }>();
  private readonly changes = new Emitter<GroupChange>();

  /** Tracks a group with the function that kills it (and settles its owner); returns the undo. */
  add(record: GroupRecord, kill: () => Promise<unknown>): () => void {
    const entry = { record, kill };
    this.live.set(record.pgid, entry);
    this.changes.emit({ type: 'added', group: record });
    return () => {
      if (this.live.get(record.pgid) !== entry) return;
      this.live.delete(record.pgid);
      this.changes.emit({ type: 'removed', group: record });
    };
  }

  /** The live groups, oldest first. */
  list(): GroupRecord[] {
    return [...this.live.values()].map((entry) => entry.record);
  }

  /** How many groups are live. */
  get size(): number {
    return this.live.size;
  }

  /**
   * Subscribes to added/removed groups, hearing first of each group already live (as added); returns the
   * unsubscribe. A listener attached late, as the crash-recovery record of a chatting host is (after MCP servers
   * started), would otherwise never learn of those groups, and a crash would leave them running
   * (docs/dispatch.md, "Process-tree kill").
   */
  onChange(listener: (change: GroupChange) => void): () => void {
    const off = this.changes.on(listener);
    for (const entry of [...this.live.values()]) listener({ type: 'added', group: entry.record });
    return off;
  }

  /** Kills every live group (for quitting); resolves once each kill has finished. */
  async killAll(): Promise<void> {
    await Promise.allSettled([...this.live.values()].map((entry) => entry.kill()));
  }
}
