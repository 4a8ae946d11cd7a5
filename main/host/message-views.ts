// Stored messages and tool calls as the chat shows them.
import type {
  ApprovalStateView,
  AssistantPartView,
  MessageView,
  ResultFile,
  RoundUsageView,
  ToolCallView,
} from '../../preload/contract';
import type { ApprovalRecord, StoredMessage, ToolCallRecord } from '../store';
import { shownArgs, shownText } from './shown-text';
import { sourceView } from './views';
import { readUserParts } from '../agent/attachments';

/** A stored message as a view; tool results are shown on their calls' cards, so they map to nothing. */
export function messageView(row: StoredMessage, usage: RoundUsageView | null = null): MessageView | null {
  const base = { id: row.id, seq: row.seq, createdAt: row.createdAt, status: row.status };
  const message = row.message;
  switch (message.role) {
    case 'user': {
      // The typed text, and each attached file from its line (main/agent/attachments.ts); file text is not shown.
      const { text, attachments } = readUserParts(message.content);
      return { kind: 'user', ...base, text, attachments };
    }
    case 'assistant': {
      const parts: AssistantPartView[] = message.content.flatMap((part): AssistantPartView[] => {
        if (part.type === 'text') return [{ type: 'text', text: part.text }];
        // An unknown tool's name is the model's to write: shown with hidden characters as escapes, as on its card.
        if (part.type === 'tool_call')
          return [{ type: 'tool_call', callId: part.id, name: shownText(part.name) }];
        // A redacted thinking block has no text to show.
        return part.text === '' ? [] : [{ type: 'reasoning', text: part.text }];
      });
      const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      return { kind: 'assistant', ...base, text, parts, usage };
    }
    case 'note':
      return { kind: 'note', ...base, text: message.text, taskId: message.taskId };
    case 'tool_results':
      return null;
  }
}

/** A call's approval state from its approval record (none when the gate never asked). */
export function approvalState(record: ApprovalRecord | undefined): ApprovalStateView {
  if (!record) return { state: 'not_asked' };
  if (record.decision === null) return { state: 'pending', requestedAt: record.requestedAt };
  return {
    state: 'decided',
    decision: { ...record.decision },
    timedOut: record.timedOut,
    decidedAt: record.decidedAt,
  };
}

/** A stored call as its card. */
export function toolCallView(call: ToolCallRecord, approval: ApprovalRecord | undefined): ToolCallView {
  return {
    chatId: call.chatId,
    callId: call.callId,
    messageId: call.messageId,
    tool: shownText(call.tool),
    source: sourceView(call.source),
    args: shownArgs(call.args),
    status: call.status,
    outcome: call.outcome,
    code: call.code,
    result: call.result === null ? null : shownText(call.result),
    queuedAt: call.queuedAt,
    startedAt: call.startedAt,
    endedAt: call.endedAt,
    durationMs: call.durationMs,
    limitMs: call.limitMs,
    approval: approvalState(approval),
  };
}

// The note write_result leaves: `Result saved: <title> (<absolute path>, <bytes> bytes)`.
const RESULT_NOTE = /^Result saved: (.*) \(((?:\/|[A-Za-z]:\\).*), (\d+) bytes\)$/s;

/** The deliverable a write_result note records, or null for any other note. */
export function resultFromNote(row: StoredMessage): ResultFile | null {
  if (row.message.role !== 'note') return null;
  const match = RESULT_NOTE.exec(row.message.text);
  if (!match) return null;
  return { title: match[1] as string, path: match[2] as string, bytes: Number(match[3]) };
}
