// Tool calls: queued when the model asks, started when dispatch runs them, finished with their outcome.
// The store must never be given secret values: args and results arrive already redacted.
import type Database from 'better-sqlite3';
import type { ToolSource } from '../../tools/sdk/types';
import type { CallOutcome, OutcomeKind } from '../core/outcome';
import { outcomeText } from '../core/outcome';

/** Where a call stands; `interrupted` when the process died before it finished. */
export type ToolCallStatus = 'queued' | 'running' | 'finished' | 'interrupted';

/** A call the model made, recorded before the gate or dispatch sees it. */
export interface QueuedCall {
  chatId: string;
  callId: string;
  tool: string;
  source: ToolSource;
  /** The arguments as redacted JSON text (the model's raw text when it did not parse). */
  args: string;
  /** The assistant message that made the call. */
  messageId?: number;
  queuedAt?: number;
}

/** A tool call as stored. */
export interface ToolCallRecord {
  chatId: string;
  callId: string;
  messageId: number | null;
  tool: string;
  source: ToolSource;
  args: string;
  status: ToolCallStatus;
  outcome: OutcomeKind | null;
  /** The error code of an `error` outcome. */
  code: string | null;
  /** The result text of `ok`, the message of every other outcome. */
  result: string | null;
  queuedAt: number;
  startedAt: number | null;
  endedAt: number | null;
  durationMs: number | null;
  limitMs: number | null;
}

interface ToolCallRow {
  chat_id: string;
  call_id: string;
  message_id: number | null;
  tool: string;
  source: string;
  args: string;
  status: ToolCallStatus;
  outcome: OutcomeKind | null;
  code: string | null;
  result: string | null;
  queued_at: number;
  started_at: number | null;
  ended_at: number | null;
  duration_ms: number | null;
  limit_ms: number | null;
}

function toRecord(row: ToolCallRow): ToolCallRecord {
  return {
    chatId: row.chat_id,
    callId: row.call_id,
    messageId: row.message_id,
    tool: row.tool,
    source: JSON.parse(row.source) as ToolSource,
    args: row.args,
    status: row.status,
    outcome: row.outcome,
    code: row.code,
    result: row.result,
    queuedAt: row.queued_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    durationMs: row.duration_ms,
    limitMs: row.limit_ms,
  };
}

/** A finite limit, or null for none (NO_TOOL_TIMEOUT is Infinity). */
export function finiteOrNull(value: number | null | undefined): number | null {
  return value !== null && value !== undefined && Number.isFinite(value) ? value : null;
}

/** The tool calls of every chat. */
export class ToolCallTable {
  private readonly insert: Database.Statement;
  private readonly start: Database.Statement;
  private readonly finish: Database.Statement;
  private readonly one: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare(`
      INSERT INTO tool_calls (chat_id, call_id, message_id, tool, source, args, status, queued_at)
      VALUES (?, ?, ?, ?, ?, ?, 'queued', ?)`);
    this.start = db.prepare(`
      UPDATE tool_calls SET status = 'running', started_at = ?, limit_ms = ?,
          outcome = NULL, code = NULL, result = NULL, ended_at = NULL, duration_ms = NULL
      WHERE chat_id = ? AND call_id = ? AND (status = 'queued' OR (status = 'finished' AND code LIKE 'credential_%'))`);
    this.finish = db.prepare(`
      UPDATE tool_calls
      SET status = 'finished', outcome = ?, code = ?, result = ?, ended_at = ?, duration_ms = ?,
          limit_ms = coalesce(?, limit_ms)
      WHERE chat_id = ? AND call_id = ? AND status IN ('queued', 'running')`);
    this.one = db.prepare('SELECT * FROM tool_calls WHERE chat_id = ? AND call_id = ?');
  }

  /** Records a call the model made; throws if the chat already has a call with this id. */
  queued(call: QueuedCall): void {
    this.insert.run(
      call.chatId,
      call.callId,
      call.messageId ?? null,
      call.tool,
      JSON.stringify(call.source),
      call.args,
      call.queuedAt ?? Date.now(),
    );
  }

  /** Records that a queued call started running under `limitMs`; a call that failed for a credential may start again (auto-heal retry). */
  started(chatId: string, callId: string, start: { limitMs: number | null; startedAt?: number }): void {
    const changes = this.start.run(
      start.startedAt ?? Date.now(),
      finiteOrNull(start.limitMs),
      chatId,
      callId,
    ).changes;
    if (changes !== 1) throw new Error(`tool call ${callId} in ${chatId} is not queued`);
  }

  /** Records how a queued or running call ended (denied and invalid calls finish without starting). */
  finished(chatId: string, callId: string, outcome: CallOutcome, endedAt: number = Date.now()): void {
    const changes = this.finish.run(
      outcome.outcome,
      outcome.outcome === 'error' ? outcome.code : null,
      outcomeText(outcome),
      endedAt,
      outcome.outcome === 'denied' ? null : outcome.durationMs,
      outcome.outcome === 'timed_out' ? finiteOrNull(outcome.limitMs) : null,
      chatId,
      callId,
    ).changes;
    if (changes !== 1) throw new Error(`tool call ${callId} in ${chatId} is not queued or running`);
  }

  /** One call, or undefined. */
  get(chatId: string, callId: string): ToolCallRecord | undefined {
    const row = this.one.get(chatId, callId) as ToolCallRow | undefined;
    return row && toRecord(row);
  }

  /** A chat's calls in the order they were made. */
  list(chatId: string, options: { limit?: number } = {}): ToolCallRecord[] {
    const rows = this.db
      .prepare('SELECT * FROM tool_calls WHERE chat_id = ? ORDER BY rowid LIMIT ?')
      .all(chatId, options.limit ?? -1) as ToolCallRow[];
    return rows.map(toRecord);
  }

  /** Marks every call still queued or running as interrupted (start-up after a crash); returns them. */
  markInterrupted(): ToolCallRecord[] {
    const rows = this.db
      .prepare(
        `UPDATE tool_calls SET status = 'interrupted', ended_at = ?
         WHERE status IN ('queued', 'running') RETURNING *`,
      )
      .all(Date.now()) as ToolCallRow[];
    return rows.map(toRecord);
  }
}
