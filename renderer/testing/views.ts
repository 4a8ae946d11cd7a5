// Builders of contract views for tests, with defaults so each test states only what it is about.
import type {
  ApprovalItemView,
  ChatSnapshot,
  ChatSummary,
  DialogRequest,
  TaskItem,
  ToolCallView,
} from '../../preload/contract';

/** A chat summary. */
export function chatSummary(patch: Partial<ChatSummary> = {}): ChatSummary {
  return {
    id: 'c1',
    title: 'Test chat',
    workspace: '/work/ws',
    createdAt: 1,
    updatedAt: 1,
    running: false,
    ...patch,
  };
}

/** An empty chat's snapshot. */
export function snapshot(patch: Partial<ChatSnapshot> = {}): ChatSnapshot {
  return {
    chat: chatSummary(),
    messages: [],
    toolCalls: [],
    todos: [],
    results: [],
    pendingApprovals: [],
    tasks: [],
    ...patch,
  };
}

/** A tool call card's view. */
export function toolCall(patch: Partial<ToolCallView> = {}): ToolCallView {
  return {
    chatId: 'c1',
    callId: 'call_1',
    messageId: 1,
    tool: 'run_command',
    source: { kind: 'builtin' },
    args: '{"command":"ls"}',
    status: 'queued',
    outcome: null,
    code: null,
    result: null,
    queuedAt: 0,
    startedAt: null,
    endedAt: null,
    durationMs: null,
    limitMs: null,
    approval: { state: 'not_asked' },
    ...patch,
  };
}

/** A background task. */
export function task(patch: Partial<TaskItem> = {}): TaskItem {
  return {
    id: 't1',
    chatId: 'c1',
    tool: 'background_command',
    summary: 'sleep 100',
    status: 'running',
    startedAt: Date.now(),
    endedAt: null,
    limitMs: 60_000,
    outputTail: '',
    result: null,
    error: null,
    ...patch,
  };
}

/** One item of an approval dialog. */
export function approvalItem(patch: Partial<ApprovalItemView> = {}): ApprovalItemView {
  return {
    index: 0,
    callId: 'call_1',
    tool: 'run_command',
    source: { kind: 'builtin' },
    flags: { alwaysAllow: false, concurrent: false, background: false, systemUse: false },
    timeoutMs: 1_800_000,
    args: '{\n  "command": "git push origin main"\n}',
    canonical: 'git push origin main',
    suggestedPattern: 'git push origin main',
    sensitive: null,
    compound: null,
    voidedRules: [],
    sandbox: 'sandboxed',
    personOnly: null,
    noStanding: null,
    offers: { chat: true, always: true },
    ...patch,
  };
}

/** An approval dialog request for `items`. */
export function approvalRequest(items: ApprovalItemView[]): Extract<DialogRequest, { kind: 'approval' }> {
  return {
    kind: 'approval',
    id: 'd1',
    chatId: 'c1',
    chatTitle: 'Test chat',
    items,
    pending: items.map((i) => i.index),
    timeoutMs: null,
    openedAt: Date.now(),
  };
}
