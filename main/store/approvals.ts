// Approvals: each call the gate asked about, and the user's decision (or its absence).
import type Database from 'better-sqlite3';
import type { ApprovalDecision } from '../core/gate-port';

/** An approval request as the gate raised it. */
export interface ApprovalAsked {
  chatId: string;
  callId: string;
  tool: string;
  /** The tool's definition hash the decision is tied to. */
  definitionHash?: string;
  requestedAt?: number;
}

/** A request with its decision; `decision` is null while the user has not answered. */
export interface ApprovalRecord {
  chatId: string;
  callId: string;
  tool: string;
  definitionHash: string | null;
  requestedAt: number;
  decidedAt: number | null;
  decision: ApprovalDecision | null;
  /** The dialog timed out and the decision is the default the gate applied. */
  timedOut: boolean;
}

interface ApprovalRow {
  chat_id: string;
  call_id: string;
  tool: string;
  definition_hash: string | null;
  requested_at: number;
  decided_at: number | null;
  decision: ApprovalDecision['kind'] | null;
  scope: 'once' | 'chat' | 'always' | null;
  reason: string | null;
  message: string | null;
  timed_out: number;
}

function decisionOf(row: ApprovalRow): ApprovalDecision | null {
  switch (row.decision) {
    case null:
      return null;
    case 'allow':
      return { kind: 'allow', scope: row.scope ?? 'once' };
    case 'deny': {
      const decision: ApprovalDecision = { kind: 'deny' };
      if (row.reason !== null) decision.reason = row.reason;
      if (row.scope === 'once' || row.scope === 'always') decision.scope = row.scope;
      if (row.message !== null) decision.message = row.message;
      return decision;
    }
    case 'stop':
      return { kind: 'stop' };
  }
}

function toRecord(row: ApprovalRow): ApprovalRecord {
  return {
    chatId: row.chat_id,
    callId: row.call_id,
    tool: row.tool,
    definitionHash: row.definition_hash,
    requestedAt: row.requested_at,
    decidedAt: row.decided_at,
    decision: decisionOf(row),
    timedOut: row.timed_out === 1,
  };
}

/** The approvals of every chat, one per call. */
export class ApprovalTable {
  private readonly insert: Database.Statement;
  private readonly decide: Database.Statement;

  constructor(private readonly db: Database.Database) {
    // A decided call asked again is re-opened; a pending one is left as it is (and reported).
    this.insert = db.prepare(`
      INSERT INTO approvals (chat_id, call_id, tool, definition_hash, requested_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (chat_id, call_id) DO UPDATE SET
        tool = excluded.tool, definition_hash = excluded.definition_hash, requested_at = excluded.requested_at,
        decided_at = NULL, decision = NULL, scope = NULL, reason = NULL, message = NULL, timed_out = 0
      WHERE approvals.decided_at IS NOT NULL`);
    this.decide = db.prepare(`
      UPDATE approvals SET decided_at = ?, decision = ?, scope = ?, reason = ?, message = ?, timed_out = ?
      WHERE chat_id = ? AND call_id = ? AND decided_at IS NULL`);
  }

  /**
   * Records that the gate asked about a call; throws if it is still waiting for a decision. A call decided before
   * and asked again (a standing approval decided again just before its call ran: docs/security.md, "Decisions and
   * rules") is re-opened, so the record keeps the decision its run went by.
   */
  requested(request: ApprovalAsked): void {
    const changes = this.insert.run(
      request.chatId,
      request.callId,
      request.tool,
      request.definitionHash ?? null,
      request.requestedAt ?? Date.now(),
    ).changes;
    if (changes !== 1)
      throw new Error(`approval for ${request.callId} in ${request.chatId} is already pending`);
  }

  /** Records the decision of a pending request; throws if there is none pending. */
  decided(
    chatId: string,
    callId: string,
    decision: ApprovalDecision,
    options: { timedOut?: boolean } = {},
  ): void {
    const changes = this.decide.run(
      Date.now(),
      decision.kind,
      decision.kind === 'stop' ? null : (decision.scope ?? null),
      decision.kind === 'deny' ? (decision.reason ?? null) : null,
      decision.kind === 'deny' ? (decision.message ?? null) : null,
      options.timedOut ? 1 : 0,
      chatId,
      callId,
    ).changes;
    if (changes !== 1) throw new Error(`no pending approval for ${callId} in ${chatId}`);
  }

  /** One call's approval, or undefined. */
  get(chatId: string, callId: string): ApprovalRecord | undefined {
    const row = this.db
      .prepare('SELECT * FROM approvals WHERE chat_id = ? AND call_id = ?')
      .get(chatId, callId) as ApprovalRow | undefined;
    return row && toRecord(row);
  }

  /** A chat's approvals in the order they were asked. */
  list(chatId: string): ApprovalRecord[] {
    const rows = this.db.prepare('SELECT * FROM approvals WHERE chat_id = ? ORDER BY rowid').all(chatId);
    return (rows as ApprovalRow[]).map(toRecord);
  }
}
