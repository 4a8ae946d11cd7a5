// THE IPC contract between main and the renderer (types only, self-contained): every invoke channel with its
// request and result, every event channel with its payload, and the two surfaces a page gets:
// - `Api` (window.agenvoy): the chat window's only way into main. It can read, chat, cancel and configure,
//   but it has NO way to approve a tool call or hand over a secret.
// - `DialogApi` (window.agenvoyDialog): the modal dialogs (approval, secret, question). In Electron each dialog
//   is its own window owned by main, with its own preload and a one-shot channel; in browser mode the page shows
//   them as in-page modals over the same WebSocket, and a secret travels on its own message.
// Errors cross the boundary as data (`{ ok: false, error }`), because Electron strips thrown errors.
// Everything main sends here is redacted and never holds a secret value.

// ---------------------------------------------------------------------------------------------------------
// Results and errors

/** Stable error codes a handler can answer with. */
export type ErrorCode =
  /** The request is malformed (missing or wrong-typed field, empty text). */
  | 'invalid_request'
  /** No chat, task, rule, server or dialog with that id. */
  | 'not_found'
  /** The chat already runs a turn (send), or the dialog item is already answered. */
  | 'busy'
  /** Settings did not validate; the message names the field. */
  | 'invalid_settings'
  /** The host cannot do this here (no secret prompt, an MCP server not configured). */
  | 'unavailable'
  /** The sender is not allowed to use this channel. */
  | 'forbidden'
  /** The bridge lost its connection to main (browser mode) before an answer came. */
  | 'disconnected'
  /** A bug or an unexpected failure in main; the message says what. */
  | 'internal';

/** An error as data. */
export interface ApiError {
  code: ErrorCode;
  message: string;
}

/** What every invoke resolves to: never a rejection for a handled failure. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ApiError };

/** Undoes a subscription. */
export type Unsubscribe = () => void;

// ---------------------------------------------------------------------------------------------------------
// Views: what main shows the renderer

/** Where a tool comes from. */
export type ToolSourceView =
  | { kind: 'builtin' }
  | { kind: 'script'; dir: string; scope: 'global' | 'workspace' }
  | { kind: 'mcp'; server: string; remoteName: string };

/** The behaviour flags of SPEC §2. */
export interface ToolFlagsView {
  alwaysAllow: boolean;
  concurrent: boolean;
  background: boolean;
  systemUse: boolean;
}

/** One design-rule finding (SPEC §3). */
export interface LintFindingView {
  /** Starts with its rule: R1_…, R2_… */
  code: string;
  level: 'error' | 'guidance';
  message: string;
}

/** A tool in the JSON shape of SPEC §2, plus where it is offered. */
export interface ToolView {
  name: string;
  source: ToolSourceView['kind'];
  /** The folder (script) or server (mcp) it came from; null for built-ins. */
  origin: string | null;
  description: string;
  flags: ToolFlagsView;
  /** null: no limit (ask_user). */
  timeoutMs: number | null;
  lint: LintFindingView[];
  /** false for tools `agenvoy chat` does not offer (background_command, background_subagents). */
  offeredHeadless: boolean;
}

/** Where an MCP server's connection stands. */
export type McpStateView =
  | { status: 'connecting'; attempt: number }
  | { status: 'ready'; transport: string; tools: number; since: number }
  | { status: 'failed'; reason: string; credential?: { key: string; reason: CredentialReasonView } }
  | { status: 'disabled' }
  | { status: 'reconnecting'; reason: string; attempt: number; retryAt: number };

/** Why a credential failed. */
export type CredentialReasonView = 'missing' | 'rejected' | 'expired';

/** One MCP server of mcp.json. */
export interface McpServerItem {
  name: string;
  endpoint: 'stdio' | 'http' | null;
  state: McpStateView;
  /** Registered names of its tools. */
  tools: string[];
  warnings: string[];
}

/** A chat in the list. */
export interface ChatSummary {
  id: string;
  title: string;
  workspace: string;
  createdAt: number;
  updatedAt: number;
  /** A turn is in flight. */
  running: boolean;
}

/** One full-text search match. */
export interface ChatSearchHit {
  chatId: string;
  chatTitle: string;
  messageId: number;
  seq: number;
  role: 'user' | 'assistant' | 'tool_results' | 'note';
  /** The text around the match, matched words marked «like this». */
  snippet: string;
  createdAt: number;
}

/** Where a stored message stands; `interrupted` when the app died mid-stream. */
export type MessageStatus = 'streaming' | 'complete' | 'cut' | 'cancelled' | 'interrupted';

/** A piece of an assistant message, in order: text, or a tool call shown as its card (see ToolCallView). */
export type AssistantPartView =
  { type: 'text'; text: string } | { type: 'tool_call'; callId: string; name: string };

/** A message as the chat shows it. Tool results are not messages here: they are on their call's card. */
export type MessageView =
  | {
      kind: 'user';
      id: number;
      seq: number;
      createdAt: number;
      status: MessageStatus;
      text: string;
      images: number;
    }
  | {
      kind: 'assistant';
      id: number;
      seq: number;
      createdAt: number;
      status: MessageStatus;
      /** All text parts joined (the markdown to render when parts are not needed). */
      text: string;
      parts: AssistantPartView[];
    }
  | {
      /** A note the chat received outside a turn (a background task ended, a result was saved). */
      kind: 'note';
      id: number;
      seq: number;
      createdAt: number;
      status: MessageStatus;
      text: string;
      taskId: string | null;
    };

/** How a call ended (SPEC §2); every message is what the model read. */
export type OutcomeView =
  | { outcome: 'ok'; text: string; durationMs: number }
  | {
      outcome: 'error';
      code: string;
      message: string;
      durationMs: number;
      credential?: { key: string; reason: CredentialReasonView };
    }
  | { outcome: 'timed_out'; message: string; limitMs: number | null; durationMs: number }
  | { outcome: 'cancelled'; message: string; durationMs: number }
  | { outcome: 'denied'; message: string; reason?: string };

/** The kinds of outcome, for exhaustive switches. */
export type OutcomeKind = OutcomeView['outcome'];

/** The user's (or a rule's) answer for one call (SPEC §8). */
export type ApprovalDecisionView =
  | { kind: 'allow'; scope: 'once' | 'chat' | 'always' }
  | { kind: 'deny'; reason?: string; scope?: 'once' | 'always'; message?: string }
  | { kind: 'stop' };

/** Where a call's approval stands. */
export type ApprovalStateView =
  | { state: 'not_asked' }
  | { state: 'pending'; requestedAt: number }
  | { state: 'decided'; decision: ApprovalDecisionView; timedOut: boolean; decidedAt: number | null };

/** Live progress of a running call. */
export interface ProgressView {
  message?: string;
  /** Streamed output (a command's stdout/stderr). */
  output?: string;
  progress?: number;
  total?: number;
}

/** Where a stored call stands. */
export type ToolCallStatus = 'queued' | 'running' | 'finished' | 'interrupted';

/** A tool-call card. */
export interface ToolCallView {
  chatId: string;
  callId: string;
  /** The assistant message that made it, when known. */
  messageId: number | null;
  tool: string;
  source: ToolSourceView;
  /** The arguments as (redacted) JSON text; the model's raw text when it did not parse. */
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
  /** The limit the call runs under; null for none. Elapsed vs limit is the countdown. */
  limitMs: number | null;
  approval: ApprovalStateView;
}

/** A background task's status (SPEC §2). */
export type TaskStatus = 'running' | 'succeeded' | 'failed' | 'timed_out' | 'cancelled' | 'interrupted';

/** A background task as the tasks panel lists it. */
export interface TaskItem {
  id: string;
  chatId: string;
  tool: string;
  summary: string;
  status: TaskStatus;
  startedAt: number;
  endedAt: number | null;
  limitMs: number | null;
  outputTail: string;
  result: string | null;
  error: string | null;
}

/** One item of the write_todo checklist. */
export interface TodoItem {
  text: string;
  status: 'pending' | 'in_progress' | 'done';
}

/** A deliverable write_result saved into the workspace. */
export interface ResultFile {
  path: string;
  title: string;
  bytes: number;
}

/** An approval the gate asked about in this chat and no one has answered yet. */
export interface PendingApprovalView {
  callId: string;
  tool: string;
  requestedAt: number;
}

/** Everything needed to show a chat, e.g. when it is opened or after a reconnect or reload. */
export interface ChatSnapshot {
  chat: ChatSummary;
  /** In order, oldest first. */
  messages: MessageView[];
  /** In the order they were made. */
  toolCalls: ToolCallView[];
  todos: TodoItem[];
  results: ResultFile[];
  pendingApprovals: PendingApprovalView[];
  tasks: TaskItem[];
}

/** A persisted approval rule (SPEC §8). */
export interface RuleItem {
  id: string;
  origin: 'default' | 'user';
  /** Tool-name glob. */
  tool: string;
  /** Glob over the canonical argument; null: any arguments. */
  pattern: string | null;
  except: string[];
  effect: 'allow' | 'deny';
  /** ISO time; null for a shipped default. */
  createdAt: string | null;
  /** A changed tool definition voids it until the user decides again. */
  void: boolean;
  changedTools: string[];
  /** Why a shipped default is safe. */
  note: string | null;
}

/** The two provider wire formats. */
export type ProviderKind = 'anthropic' | 'openai';

/** The settings screen's fields. */
export interface SettingsView {
  provider: ProviderKind;
  baseUrl: string;
  model: string;
  /** The secret holding the API key; null for servers without one. */
  apiKeyName: string | null;
  /** Where new chats work unless they pick a folder. */
  defaultWorkspace: string;
  /** Every provider, in display order. */
  providers: ProviderKind[];
  /** Fields an environment variable (AGENVOY_PROVIDER, AGENVOY_BASE_URL, AGENVOY_MODEL) overrides: saving them changes the file, not what is used. */
  overridden: Array<'provider' | 'baseUrl' | 'model'>;
}

/** What settings.save changes; a field left out is kept. */
export interface SettingsInput {
  provider?: ProviderKind;
  baseUrl?: string;
  model?: string;
  apiKeyName?: string | null;
  defaultWorkspace?: string;
}

/** Where a secret lives. */
export type SecretLocation = 'keychain' | 'file' | 'env';

/** Stored key names and the active backend; never a value. */
export interface SecretsView {
  keys: Array<{ key: string; locations: SecretLocation[] }>;
  /** 'none': no keychain and no file fallback; values only come from the environment. */
  backend: 'keychain' | 'file' | 'none';
  /** Why this backend is active, in words a user can act on. */
  reason: string;
  /** The fallback secrets file; null on macOS and Windows. */
  file: string | null;
  interopNote: string | null;
}

/** What the host is. */
export interface AppInfo {
  /** electron: the desktop app; web: browser mode (`agenvoy web`). */
  mode: 'electron' | 'web';
  version: string;
  platform: string;
  /** $AGENVOY_HOME. */
  home: string;
  defaultWorkspace: string;
}

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
  /** A new chat; `workspace` defaults to the settings' default workspace. */
  'chats.create': { request: { title?: string; workspace?: string }; result: ChatSummary };
  /** Everything to show one chat. */
  'chats.open': { request: { chatId: string }; result: ChatSnapshot };
  'chats.rename': { request: { chatId: string; title: string }; result: ChatSummary };
  /** Deletes a chat with its history (refused with `busy` while it runs a turn). */
  'chats.delete': { request: { chatId: string }; result: { deleted: true } };
  /** Moves a chat to another folder (an absolute path; it must exist). */
  'chats.setWorkspace': { request: { chatId: string; workspace: string }; result: ChatSummary };
  /** Starts a turn; resolves once it started (not when it ends): follow it on `chat.event`. */
  'turn.send': { request: { chatId: string; text: string }; result: { started: true } };
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
  /** Approval rules in force; `problem` is set (and `rules` empty) when the rules file is damaged. */
  'rules.list': { request: Record<string, never>; result: { rules: RuleItem[]; problem: string | null } };
  'rules.revoke': { request: { id: string }; result: RuleItem };
  'settings.get': { request: Record<string, never>; result: SettingsView };
  'settings.save': { request: SettingsInput; result: SettingsView };
  /** Stored key names and the active backend; never a value. */
  'secrets.list': { request: Record<string, never>; result: SecretsView };
  /** Asks main to open the masked secret dialog for `key` (e.g. the provider's key from settings); the value never comes back. */
  'secrets.prompt': { request: { key: string; question?: string }; result: { stored: boolean } };
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
  | { type: 'call.finished'; chatId: string; callId: string; tool: string; outcome: OutcomeView }
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

// ---------------------------------------------------------------------------------------------------------
// Dialogs: approval, secret, question

/** One call in an approval dialog, with everything SPEC §8 says the user is shown. */
export interface ApprovalItemView {
  /** Position in the batch; answers name it. */
  index: number;
  callId: string;
  tool: string;
  source: ToolSourceView;
  flags: ToolFlagsView;
  timeoutMs: number | null;
  /** The full arguments as pretty (redacted) JSON. */
  args: string;
  /** The canonical argument rules match (the command line for run_command). */
  canonical: string;
  /** The pattern "always allow/deny" saves when no other is given: the exact command line, or null (any arguments). */
  suggestedPattern: string | null;
  /** Why the call always asks (a sensitive target), or null. */
  sensitive: string | null;
  /** The compound operator no standing approval covers (`&&`, `|`…), or null. */
  compound: string | null;
  /** Rules that no longer apply because the tool's definition changed. */
  voidedRules: string[];
  /** Which standing approvals may be offered (none for a sensitive target). */
  offers: { chat: boolean; always: boolean };
}

/** The user's answer for one approval item (SPEC §8). */
export type ApprovalChoice =
  | { kind: 'allow_once' }
  | { kind: 'allow_chat' }
  /** `pattern` left out saves the item's suggestion; null covers any arguments. */
  | { kind: 'allow_always'; pattern?: string | null }
  | { kind: 'deny_always'; pattern?: string | null; reason?: string }
  /** `reason` is sent to the model. */
  | { kind: 'deny'; reason?: string }
  | { kind: 'stop' };

/** One ask_user question. */
export interface QuestionView {
  id: string;
  prompt: string;
  /** text: free answer; single: one of options; multiple: any of options. */
  kind: 'text' | 'single' | 'multiple';
  options: string[];
}

/** A dialog main wants answered. */
export type DialogRequest =
  | {
      kind: 'approval';
      id: string;
      chatId: string;
      chatTitle: string;
      items: ApprovalItemView[];
      /** Indexes still to answer (answering one may settle others: a chat grant or a rule covers them). */
      pending: number[];
      /** null: no time-out. */
      timeoutMs: number | null;
      openedAt: number;
    }
  | {
      kind: 'secret';
      id: string;
      /** The key name; the password field is labelled with it. */
      key: string;
      /** Why it is asked. */
      question: string;
      /** The tool that needs it, when one does. */
      forTool: string | null;
      openedAt: number;
    }
  | {
      kind: 'question';
      id: string;
      chatId: string;
      chatTitle: string;
      questions: QuestionView[];
      openedAt: number;
    };

/** The answer to a secret dialog: the value (sent once, stored by main, never echoed) or cancel. */
export type SecretAnswer = { kind: 'value'; value: string } | { kind: 'cancel' };

/** The answer to an ask_user dialog. */
export type QuestionAnswer =
  { kind: 'answered'; answers: Record<string, string | string[]> } | { kind: 'dismissed'; reason?: string };

/** Why a dialog closed. */
export type DialogCloseReason = 'answered' | 'timed_out' | 'cancelled';

/** Dialog lifecycle. */
export type DialogEvent =
  | { type: 'dialog.opened'; dialog: DialogRequest }
  /** An approval dialog's remaining items changed. */
  | { type: 'dialog.updated'; id: string; pending: number[] }
  | { type: 'dialog.closed'; id: string; reason: DialogCloseReason };

/**
 * The dialogs' own surface: `window.agenvoyDialog`. In an Electron dialog window it is scoped to that one dialog
 * (`pending()` returns just it); in browser mode it carries every open dialog over the page's WebSocket.
 */
export interface DialogApi {
  /** The dialogs open now, oldest first (after a reload, or when a dialog window loads). */
  pending(): Promise<Result<DialogRequest[]>>;
  /** Listens to dialogs opening, changing and closing; returns the unsubscribe. */
  onEvent(listener: (event: DialogEvent) => void): Unsubscribe;
  /** Answers one item of an approval dialog; resolves with the indexes still pending. */
  answerApproval(request: {
    id: string;
    index: number;
    choice: ApprovalChoice;
  }): Promise<Result<{ pending: number[] }>>;
  /** Answers a secret dialog. Forget the value after the call: do not keep it in state. */
  answerSecret(request: { id: string; answer: SecretAnswer }): Promise<Result<{ accepted: true }>>;
  /** Answers an ask_user dialog. */
  answerQuestion(request: { id: string; answer: QuestionAnswer }): Promise<Result<{ accepted: true }>>;
}

// ---------------------------------------------------------------------------------------------------------
// How a page finds its surfaces

/**
 * The globals of a page. Electron's chat window has `agenvoy` only; an Electron dialog window has `agenvoyDialog`
 * only (render just that dialog); in browser mode neither exists until `installWebBridge(window)` from
 * preload/web-bridge.ts installs both from the page URL's `token`.
 */
export interface AgenvoyGlobals {
  agenvoy?: Api;
  agenvoyDialog?: DialogApi;
}
