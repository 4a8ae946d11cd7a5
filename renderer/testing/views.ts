// Builders of contract views for tests, with defaults so each test states only what it is about.
import type {
  ApprovalItemView,
  ChatSnapshot,
  ChatSummary,
  DialogRequest,
  MessageView,
  RoundUsageView,
  SettingsView,
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
    reasoning: 'default',
    model: null,
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
    grant: { kind: 'tool' },
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

/** An assistant message (one model round), complete and without usage unless patched. */
export function assistantMessage(
  patch: Partial<Extract<MessageView, { kind: 'assistant' }>> = {},
): Extract<MessageView, { kind: 'assistant' }> {
  const text = patch.text ?? 'Done.';
  return {
    kind: 'assistant',
    id: 1,
    seq: 1,
    createdAt: 1,
    status: 'complete',
    text,
    parts: [{ type: 'text', text }],
    usage: null,
    ...patch,
  };
}

/** A user message. */
export function userMessage(
  patch: Partial<Extract<MessageView, { kind: 'user' }>> = {},
): Extract<MessageView, { kind: 'user' }> {
  return {
    kind: 'user',
    id: 1,
    seq: 1,
    createdAt: 1,
    status: 'complete',
    text: 'Hi',
    attachments: [],
    ...patch,
  };
}

/** One round's usage: every count known and a cost unless patched. */
export function roundUsage(
  usage: Partial<RoundUsageView['usage']> = {},
  patch: Partial<Omit<RoundUsageView, 'usage'>> = {},
): RoundUsageView {
  return {
    model: 'claude-sonnet-4-5',
    usage: { inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0, ...usage },
    costUsd: 0.001,
    ...patch,
  };
}

/** The settings screen's view of a configured OpenAI provider. */
export function settingsView(patch: Partial<SettingsView> = {}): SettingsView {
  return {
    provider: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-4o',
    apiKeyName: 'OPENAI_API_KEY',
    defaultWorkspace: '',
    chatsFolder: '/home/person/Agenvoy',
    providers: ['openai'],
    presets: [],
    configured: true,
    problem: null,
    reasoning: 'medium',
    thinkingBudgetTokens: null,
    prices: [],
    overridden: [],
    ...patch,
  };
}
