// The IPC contract, part: Invoke and event channels, and the chat window's Api. Types only; preload/contract.ts re-exports every part.
import type { Result, Unsubscribe } from './result';
import type {
  AppInfo,
  ApprovalDecisionView,
  ChatSearchHit,
  ChatSnapshot,
  ChatSummary,
  McpServerItem,
  MessageView,
  OutcomeView,
  ProgressView,
  ResultFile,
  RuleItem,
  TaskItem,
  TodoItem,
  ToolCallView,
  ToolSourceView,
  ToolView,
} from './views';
import type { ModelListView, ProviderKind, SecretsView, SettingsInput, SettingsView } from './settings-views';
import type { SandboxStatusView, TrustedFolderItem, WorkspaceTrustView } from './security-views';
import type { AttachmentInput } from './attachment-views';
import type { ChatReasoning, TokenUsageView } from './model-views';
import type { UpdateRestartResult, UpdateView } from './update-views';

// ---------------------------------------------------------------------------------------------------------
// Invoke channels

/** Every invoke channel: its request and its result. */
export interface InvokeChannels {
  /** What the host is. */
  'app.info': { request: Record<string, never>; result: AppInfo };
  /** Chats, most recently active first; `search` filters titles. */
  'chats.list': { request: { search?: string; limit?: number }; result: ChatSummary[] };
  /** Full-text search over messages, across chats or in one. */
  'chats.search': { request: { query: string; chatId?: string; limit?: number }; result: ChatSearchHit[] };
  /**
   * A new chat; `workspace` defaults to the settings' default workspace, else a new folder of its own
   * (~/Agenvoy/<title>). The home folder itself needs `confirmHome: true` (else `confirm_required`).
   */
  'chats.create': {
    request: { title?: string; workspace?: string; confirmHome?: boolean };
    result: ChatSummary;
  };
  /** Everything to show one chat; a long call's arguments and result only begin on its card (`argsCut`, `resultCut`). */
  'chats.open': { request: { chatId: string }; result: ChatSnapshot };
  /** One call of a chat with its arguments and result whole (docs/interface.md, "Large calls"). */
  'chats.call': { request: { chatId: string; callId: string }; result: ToolCallView };
  /** One message of a chat with its texts whole (docs/interface.md, "Large calls"). */
  'chats.message': { request: { chatId: string; messageId: number }; result: MessageView };
  'chats.rename': { request: { chatId: string; title: string }; result: ChatSummary };
  /** Sets how much the model reasons in this chat ('default': as the settings say). */
  'chats.setReasoning': { request: { chatId: string; reasoning: ChatReasoning }; result: ChatSummary };
  /** The model of the chat's next turns: an id from the provider's list, or null for the settings' model. */
  'chats.setModel': { request: { chatId: string; model: string | null }; result: ChatSummary };
  /** Deletes a chat with its history (refused with `busy` while it runs a turn). */
  'chats.delete': { request: { chatId: string }; result: { deleted: true } };
  /** Moves a chat to another folder (an absolute path; it must exist; the home folder needs `confirmHome: true`). */
  'chats.setWorkspace': {
    request: { chatId: string; workspace: string; confirmHome?: boolean };
    result: ChatSummary;
  };
  /** Starts a turn; resolves once it started (not when it ends): follow it on `chat.event`. */
  'turn.send': {
    request: { chatId: string; text: string; attachments?: AttachmentInput[] };
    result: { started: true };
  };
  /** Stops the chat's running turn; `cancelled` is false when none ran. */
  'turn.cancel': { request: { chatId: string }; result: { cancelled: boolean } };
  /** Background tasks in start order, of every chat or one. */
  'tasks.list': { request: { chatId?: string }; result: TaskItem[] };
  'tasks.cancel': { request: { taskId: string }; result: { cancelled: boolean } };
  /** Every registered tool, sorted by name. */
  'tools.list': { request: Record<string, never>; result: ToolView[] };
  /** The MCP servers of mcp.json, and problems with the file itself. */
  'mcp.list': { request: Record<string, never>; result: { servers: McpServerItem[]; problems: string[] } };
  /** Reconnects one server now; resolves with its state once it settled. */
  'mcp.reconnect': { request: { name: string }; result: McpServerItem };
  /**
   * Trusts the changed definitions of a server's trusted tools as they are now, after main showed what changed and
   * the person agreed in its own dialog (`declined` otherwise; docs/security.md, "MCP trust").
   */
  'mcp.accept': { request: { name: string }; result: McpServerItem };
  /** Approval rules in force; `problem` is set (and `rules` empty) when the rules file is damaged. */
  'rules.list': { request: Record<string, never>; result: { rules: RuleItem[]; problem: string | null } };
  'rules.revoke': { request: { id: string }; result: RuleItem };
  /** Trusted folders (docs/security.md); `problem` is set (and `folders` empty) when the file is damaged. */
  'trust.list': {
    request: Record<string, never>;
    result: { folders: TrustedFolderItem[]; problem: string | null };
  };
  /** Trusts a folder's workspace tools (by realpath); script tools are rescanned before it resolves. */
  'trust.add': { request: { folder: string }; result: TrustedFolderItem };
  /** Stops trusting a folder (`not_found` when it was not trusted); script tools are rescanned before it resolves. */
  'trust.revoke': { request: { folder: string }; result: TrustedFolderItem };
  /** Whether a workspace (default: the one the app loads tools from) has tools that are not trusted. */
  'trust.status': { request: { workspace?: string }; result: WorkspaceTrustView };
  'settings.get': { request: Record<string, never>; result: SettingsView };
  /** Whether commands and script tools run in the OS sandbox here, and what it allows. */
  'sandbox.status': { request: Record<string, never>; result: SandboxStatusView };
  'settings.save': { request: SettingsInput; result: SettingsView };
  /**
   * Asks the provider's server (main may reach loopback and the LAN) for its models, with the key stored under
   * `apiKeyName` (null: none sent). Refused with `unavailable` and the problem in words when it fails.
   */
  'provider.models': {
    request: { provider: ProviderKind; baseUrl: string; apiKeyName: string | null };
    result: ModelListView;
  };
  /** Stored key names and the active backend; never a value. */
  'secrets.list': { request: Record<string, never>; result: SecretsView };
  /** Asks main to open the masked secret dialog for `key` (e.g. the provider's key from settings); the value never comes back. */
  'secrets.prompt': { request: { key: string; question?: string }; result: { stored: boolean } };
  /** Where updating the desktop app stands (browser mode: unsupported). */
  'updates.status': { request: Record<string, never>; result: UpdateView };
  /** Restarts into the downloaded update; refused while a turn or a background task runs. */
  'updates.restart': { request: Record<string, never>; result: UpdateRestartResult };
  /** Turns checking for updates on or off (settings.json `autoUpdate`). */
  'updates.setEnabled': { request: { enabled: boolean }; result: UpdateView };
}

/** An invoke channel's name. */
export type InvokeChannel = keyof InvokeChannels;
/** An invoke channel's request. */
export type InvokeRequest<C extends InvokeChannel> = InvokeChannels[C]['request'];
/** An invoke channel's result (inside `Result`). */
export type InvokeResult<C extends InvokeChannel> = InvokeChannels[C]['result'];

// ---------------------------------------------------------------------------------------------------------
// Event channels

/** How a turn ended. */
export type TurnStatus = 'completed' | 'cancelled' | 'failed';

/** One event of a chat (mirrors main's TurnEvent); committed to the store before it is sent. */
export type ChatEvent =
  | { type: 'turn.started'; chatId: string; turnId: string }
  | { type: 'message.user'; chatId: string; text: string }
  | { type: 'message.started'; chatId: string; messageId: number; round: number }
  | { type: 'text.delta'; chatId: string; messageId: number; delta: string }
  /** The model's reasoning as it streams (shown collapsed under the answer). */
  | { type: 'reasoning.delta'; chatId: string; messageId: number; delta: string }
  /** A round's tokens (a count is null when the server did not report it) and cost (null: unknown), once it ended. */
  | {
      type: 'usage';
      chatId: string;
      messageId: number;
      round: number;
      model: string;
      usage: TokenUsageView;
      costUsd: number | null;
    }
  | { type: 'message.finished'; chatId: string; messageId: number; status: 'complete' | 'cut' | 'cancelled' }
  /** The model streamed a tool call (raw argument text). */
  | { type: 'tool.call'; chatId: string; callId: string; name: string; args: string }
  /** The call is recorded (its card appears); `args` is redacted JSON text. */
  | {
      type: 'call.queued';
      chatId: string;
      callId: string;
      tool: string;
      source: ToolSourceView;
      args: string;
      /** Characters of `args` left out (docs/interface.md, "Large calls"); absent or 0: whole. */
      argsCut?: number;
    }
  | { type: 'call.approval'; chatId: string; callId: string; tool: string; decision: ApprovalDecisionView }
  | {
      type: 'call.started';
      chatId: string;
      callId: string;
      tool: string;
      startedAt: number;
      limitMs: number | null;
    }
  | {
      type: 'call.progress';
      chatId: string;
      callId: string;
      tool: string;
      elapsedMs: number;
      update: ProgressView;
    }
  /** `cut`: characters of the outcome's text or message left out, as `argsCut`. */
  | {
      type: 'call.finished';
      chatId: string;
      callId: string;
      tool: string;
      outcome: OutcomeView;
      cut?: number;
    }
  /** Same change as `task.changed`, for the chat's own view. */
  | { type: 'task.updated'; chatId: string; task: TaskItem }
  | { type: 'todo.updated'; chatId: string; items: TodoItem[] }
  | { type: 'result.published'; chatId: string; result: ResultFile }
  | { type: 'notice'; chatId: string; level: 'info' | 'warn' | 'error'; message: string }
  | {
      type: 'turn.finished';
      chatId: string;
      turnId: string;
      status: TurnStatus;
      text: string;
      rounds: number;
      error?: string;
    }
  /** Chat-list changes made outside a turn (created, renamed, moved, deleted). */
  | { type: 'chat.changed'; chatId: string; chat: ChatSummary | null };

/** Who or what decided a call. */
export type DecidedBy =
  'user' | 'rule' | 'chat_grant' | 'policy' | 'timeout' | 'no_prompter' | 'cancelled' | 'prompt_failed';

/** One event of the confirm gate (no argument values). The chat window shows "waiting for approval" from these. */
export type GateEventView =
  | {
      type: 'gate.requested';
      chatId: string;
      calls: Array<{ callId: string; tool: string; sensitive: string | null }>;
    }
  | { type: 'gate.asking'; chatId: string; callIds: string[]; timeoutMs: number | null }
  | {
      type: 'gate.decided';
      chatId: string;
      callId: string;
      tool: string;
      decision: ApprovalDecisionView;
      by: DecidedBy;
      ruleId: string | null;
    }
  | { type: 'gate.timed_out'; chatId: string; callIds: string[]; afterMs: number };

/** Something the user should be told outside the chat (a toast). */
export type AppNotice =
  | { kind: 'approval_timed_out'; chatId: string; tools: string[]; afterMs: number }
  | { kind: 'rule_saved'; ruleId: string; tool: string; pattern: string | null; effect: 'allow' | 'deny' }
  | { kind: 'rule_not_saved'; tool: string; message: string }
  | { kind: 'settled'; chatId: string; tool: string; by: 'rule' | 'chat_grant'; allowed: boolean }
  | { kind: 'secret_stored'; key: string }
  | { kind: 'message'; level: 'info' | 'warn' | 'error'; message: string };

/** The bridge's link to main: only browser mode ever leaves `connected`. Refetch snapshots on `connected` after `reconnecting`. */
export type ConnectionState =
  { state: 'connected' } | { state: 'reconnecting'; attempt: number } | { state: 'closed'; reason: string };

/** Every event channel and its payload. */
export interface EventChannels {
  'chat.event': ChatEvent;
  'gate.event': GateEventView;
  /** A background task started or changed (every chat's). */
  'task.changed': TaskItem;
  /** The registry changed (script or MCP tools came or went); refetch with tools.list. */
  'tools.changed': { count: number };
  'mcp.changed': McpServerItem;
  /** A rule was added, revoked or bound; refetch with rules.list. */
  'rules.changed': { ruleId: string };
  notice: AppNotice;
  connection: ConnectionState;
  /** Updating changed (checked, downloading, downloaded, a turn started or ended while one waits). */
  'updates.changed': UpdateView;
}

/** An event channel's name. */
export type EventChannel = keyof EventChannels;
/** An event channel's payload. */
export type EventPayload<E extends EventChannel> = EventChannels[E];

// ---------------------------------------------------------------------------------------------------------
// The chat window's Api

/** What the chat window can do: `window.agenvoy` in Electron, installed by preload/web-bridge.ts in browser mode. */
export interface Api {
  /** Calls a channel; resolves to a Result and never rejects for a handled failure. */
  invoke<C extends InvokeChannel>(channel: C, request: InvokeRequest<C>): Promise<Result<InvokeResult<C>>>;
  /** Listens to an event channel; returns the unsubscribe. */
  on<E extends EventChannel>(channel: E, listener: (payload: EventPayload<E>) => void): Unsubscribe;
}
