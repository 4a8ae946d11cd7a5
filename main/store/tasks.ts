// Background tasks (docs/dispatch.md, "Background tasks"): recorded as they start and change, so a crash leaves a trace to mark interrupted.
// The store must never be given secret values: summaries, output tails and results arrive already redacted.
import type Database from 'better-sqlite3';
import type { TaskView } from '../../tools/sdk/types';
import { finiteOrNull } from './tool-calls';

/** A task with the chat it belongs to. */
export type TaskRecord = TaskView & { chatId: string };

/** Options of `TaskTable.list`. */
export interface TaskListOptions {
  chatId?: string;
  status?: TaskView['status'];
}

interface TaskRow {
  id: string;
  chat_id: string;
  tool: string;
  summary: string;
  status: TaskView['status'];
  started_at: number;
  ended_at: number | null;
  limit_ms: number | null;
  output_tail: string;
  result: string | null;
  error: string | null;
}

function toRecord(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    chatId: row.chat_id,
    tool: row.tool,
    summary: row.summary,
    status: row.status,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    limitMs: row.limit_ms,
    outputTail: row.output_tail,
    result: row.result,
    error: row.error,
  };
}

/** The background tasks of every chat. */
export class TaskTable {
  private readonly upsertStatement: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.upsertStatement = db.prepare(`
      INSERT INTO tasks (id, chat_id, tool, summary, status, started_at, ended_at, limit_ms, output_tail, result, error, updated_at)
      VALUES (@id, @chatId, @tool, @summary, @status, @startedAt, @endedAt, @limitMs, @outputTail, @result, @error, @now)
      ON CONFLICT (id) DO UPDATE SET
        summary = excluded.summary, status = excluded.status, ended_at = excluded.ended_at,
        limit_ms = excluded.limit_ms, output_tail = excluded.output_tail, result = excluded.result,
        error = excluded.error, updated_at = excluded.updated_at`);
  }

  /** Records a task's current state, inserting it the first time (the registry calls it on every change). */
  upsert(task: TaskRecord): void {
    this.upsertStatement.run({
      id: task.id,
      chatId: task.chatId,
      tool: task.tool,
      summary: task.summary,
      status: task.status,
      startedAt: task.startedAt,
      endedAt: task.endedAt,
      limitMs: finiteOrNull(task.limitMs),
      outputTail: task.outputTail,
      result: task.result,
      error: task.error,
      now: Date.now(),
    });
  }

  /** One task, or undefined. */
  get(id: string): TaskRecord | undefined {
    const row = this.db.prepare('SELECT * FROM tasks WHERE id = ?').get(id) as TaskRow | undefined;
    return row && toRecord(row);
  }

  /** Tasks in start order, optionally of one chat or one status. */
  list(options: TaskListOptions = {}): TaskRecord[] {
    const rows = this.db
      .prepare(
        `SELECT * FROM tasks WHERE (@chatId IS NULL OR chat_id = @chatId) AND (@status IS NULL OR status = @status)
         ORDER BY started_at, rowid`,
      )
      .all({ chatId: options.chatId ?? null, status: options.status ?? null }) as TaskRow[];
    return rows.map(toRecord);
  }

  /** Marks every task still running as interrupted (start-up after a crash); returns them as they are now. */
  markInterrupted(): TaskRecord[] {
    const now = Date.now();
    const rows = this.db
      .prepare(
        `UPDATE tasks SET status = 'interrupted', ended_at = ?, updated_at = ?
         WHERE status = 'running' RETURNING *`,
      )
      .all(now, now) as TaskRow[];
    return rows.map(toRecord);
  }
}
