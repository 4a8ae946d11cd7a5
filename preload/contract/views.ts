// The IPC contract, part: Views: what main shows the renderer. Types only; preload/contract.ts re-exports every part.
import type { AttachedFileView } from './attachment-views';
import type { ChatReasoning, RoundUsageView } from './model-views';

// ---------------------------------------------------------------------------------------------------------
// Views: what main shows the renderer

/** Where a tool comes from. */
export type ToolSourceView =
  | { kind: 'builtin' }
  | {
      kind: 'script';
      dir: string;
      scope: 'global' | 'workspace';
      /** False for a workspace tool whose folder the person has not trusted. */
      trusted: boolean;
      /** Folders a global tool may write besides the workspace. */
      writable: string[];
    }
  | { kind: 'mcp'; server: string; remoteName: string };

/** The behaviour flags (docs/tools.md, "Behaviour flags"). */
export interface ToolFlagsView {
  alwaysAllow: boolean;
  concurrent: boolean;
  background: boolean;
  systemUse: boolean;
}

/** One design-rule finding (docs/tools.md, "Design rules"). */
export interface LintFindingView {
  /** Starts with its rule: R1_…, R2_… */
  code: string;
  level: 'error' | 'guidance';
  message: string;
}

/** A tool in the JSON shape of docs/tools.md ("How a tool is shown"), plus where it is offered. */
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
  /** Script tools only: false for a workspace tool of a folder the person has not trusted (docs/security.md). */
  trusted?: boolean;
  /** Script tools only: the folders it may write besides the workspace (tool.json's `writable`). */
  writable?: string[];
  /** What the loader noticed but did not stop on, e.g. an unknown tool.json key; absent when nothing. */
  warnings?: string[];
  /** Present on a broken tool: the step that failed and why. It is never offered, and calls to it fail. */
  broken?: ToolBrokenView;
}

/** Why a tool is broken: the per-tool step that failed (definition, limits, lint, compile, hash, index, list). */
export interface ToolBrokenView {
  step: string;
  reason: string;
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
  /** Trusted tools (names on the server) asking because their definition changed: `mcp.accept` takes them. */
  changed: string[];
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
  /** How much the model reasons in this chat; 'default' follows the settings (docs/agent-loop.md, "Reasoning"). */
  reasoning: ChatReasoning;
  /** The model of this chat's turns; null follows the settings' model (docs/agent-loop.md, "The model of a chat"). */
  model: string | null;
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
  | { type: 'text'; text: string }
  | { type: 'tool_call'; callId: string; name: string }
  /** What the model reasoned before this part (shown collapsed; never passed to a tool). */
  | { type: 'reasoning'; text: string };

/**
 * A message as the chat shows it. Tool results are not messages here: they are on their call's card. `cut`: characters
 * of its texts left out of this view (docs/interface.md, "Large calls"); `chats.message` gives it whole.
 */
export type MessageView = { cut?: number } & (
  | {
      kind: 'user';
      id: number;
      seq: number;
      createdAt: number;
      status: MessageStatus;
      /** What was typed. */
      text: string;
      /** The files the message carried, in order. */
      attachments: AttachedFileView[];
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
      /** The round's tokens and cost; null until the round ended, or for history from before usage was recorded. */
      usage: RoundUsageView | null;
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
    }
);

/** How a call ended (docs/tools.md, "How a tool is shown"); every message is what the model read. */
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

/** The user's (or a rule's) answer for one call (docs/security.md, "Decisions and rules"). */
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
  /**
   * Characters of the arguments left out of this view (docs/interface.md, "Large calls"): a card gets the start of a
   * long text, `chats.call` the whole. Absent or 0: `args` is whole.
   */
  argsCut?: number;
  status: ToolCallStatus;
  outcome: OutcomeKind | null;
  /** The error code of an `error` outcome. */
  code: string | null;
  /** The result text of `ok`, the message of every other outcome. */
  result: string | null;
  /** Characters of the result left out of this view, as `argsCut`. */
  resultCut?: number;
  queuedAt: number;
  startedAt: number | null;
  endedAt: number | null;
  durationMs: number | null;
  /** The limit the call runs under; null for none. Elapsed vs limit is the countdown. */
  limitMs: number | null;
  approval: ApprovalStateView;
}

/** A background task's status (docs/tools.md, "How a tool is shown"). */
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

/** A persisted approval rule (docs/security.md, "Decisions and rules"). */
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
