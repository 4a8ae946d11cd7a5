// Live child process groups, recorded as they start and removed as they end, so the next start can kill leftovers.
import type Database from 'better-sqlite3';
import type { GroupRecord } from '../process/process-group-tracker';

/** What a group was started for. */
export interface GroupOwner {
  taskId?: string;
  callId?: string;
}

/** A recorded group: what killLeftoverGroups needs, plus its owner. */
export type StoredGroup = GroupRecord & { owner: GroupOwner };

interface GroupRow {
  pgid: number;
  command: string;
  started_at: number;
  start_time: string | null;
  boot_id: string | null;
  task_id: string | null;
  call_id: string | null;
  run_mark: string | null;
}

function toStored(row: GroupRow): StoredGroup {
  const owner: GroupOwner = {};
  if (row.task_id !== null) owner.taskId = row.task_id;
  if (row.call_id !== null) owner.callId = row.call_id;
  return {
    pgid: row.pgid,
    command: row.command,
    startedAt: row.started_at,
    startTime: row.start_time,
    bootId: row.boot_id,
    ...(row.run_mark !== null ? { mark: row.run_mark } : {}),
    owner,
  };
}

/** The process groups this app has running (and, after a crash, had running). */
export class ProcessGroupTable {
  private readonly insert: Database.Statement;
  private readonly removeStatement: Database.Statement;

  constructor(private readonly db: Database.Database) {
    // A pgid recorded earlier and never removed is stale once the kernel hands the pid out again.
    this.insert = db.prepare(`
      INSERT OR REPLACE INTO process_groups (pgid, command, started_at, start_time, boot_id, task_id, call_id, run_mark)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    this.removeStatement = db.prepare('DELETE FROM process_groups WHERE pgid = ?');
  }

  /** Records a group whose leader has just been spawned (the command line already redacted). */
  record(group: GroupRecord, owner: GroupOwner = {}): void {
    this.insert.run(
      group.pgid,
      group.command,
      group.startedAt,
      group.startTime,
      group.bootId,
      owner.taskId ?? null,
      owner.callId ?? null,
      group.mark ?? null,
    );
  }

  /** Forgets a group once it has ended or been killed; false when it was not recorded. */
  remove(pgid: number): boolean {
    return this.removeStatement.run(pgid).changes === 1;
  }

  /** Every recorded group, oldest first: at start-up, the leftovers of a run that crashed. */
  live(): StoredGroup[] {
    return (
      this.db.prepare('SELECT * FROM process_groups ORDER BY started_at, pgid').all() as GroupRow[]
    ).map(toStored);
  }
}
