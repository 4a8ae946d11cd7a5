// The tool contract shared by main/ and tools/: what a tool is, what it receives, what it returns.
// tools/ gets every capability through ToolContext, so nothing here imports main/.
import type { AskUserPort, ChatPort, SubagentPort } from './chat-ports';
import type { PageRendererPort } from './web/page-renderer-port';
import type { ProcessPort } from './process-port';
import type { WebSettings } from './web/web-settings';

/** Default limit of a tool call: 15 minutes. */
export const DEFAULT_TOOL_TIMEOUT = 15 * 60 * 1000;

/** A tool with this timeout has no limit (ask_user). Shown as `timeoutMs: null` in JSON. */
export const NO_TOOL_TIMEOUT = Number.POSITIVE_INFINITY;

/** A JSON Schema object as tools declare their parameters. */
export type JsonSchema = { [key: string]: unknown };

/** Where a tool comes from; `origin` says which folder or server. */
export type ToolSource =
  | { kind: 'builtin' }
  | {
      kind: 'script';
      dir: string;
      scope: 'global' | 'workspace';
      /** False for a workspace tool whose folder the person has not trusted: it asks on every call and gets no secrets. */
      trusted: boolean;
      /** Why an untrusted workspace tool is untrusted, as words that follow "it" (e.g. new since its folder was trusted). */
      untrusted?: string;
      /** Folders a global tool may write besides the workspace (its own folder and tool.json's `writable`). */
      writable: string[];
    }
  | { kind: 'mcp'; server: string; remoteName: string };

/** The behaviour flags (docs/tools.md, "Behaviour flags"); the fifth, the timeout, is kept apart as `timeoutMs`. */
export interface ToolFlags {
  alwaysAllow: boolean;
  concurrent: boolean;
  background: boolean;
  systemUse: boolean;
}

/** One part of a tool's output: text, an image or an embedded resource. */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string; blob?: string };

/** What a handler returns: plain text, or content parts plus optional structured data. */
export type ToolResult = string | { content: ContentPart[]; data?: unknown };

/** A progress update a handler reports while it runs. */
export interface ProgressUpdate {
  message?: string;
  /** Streamed output (a command's stdout/stderr); background tasks keep its tail. */
  output?: string;
  progress?: number;
  total?: number;
}

/** Minimal structured logger handed to tools. */
export interface ToolLogger {
  info(message: string, fields?: Record<string, unknown>, options?: LogOptions): void;
  warn(message: string, fields?: Record<string, unknown>, options?: LogOptions): void;
  error(message: string, fields?: Record<string, unknown>, options?: LogOptions): void;
}

/** How one log line is written. */
export interface LogOptions {
  /** false leaves out the logger's fixed fields (tool, call): a line whose exact form is documented (heartbeat). */
  context?: boolean;
}

/** A tool as seen from search and list results (no handler). */
export interface ToolSummary {
  name: string;
  description: string;
  source: ToolSource['kind'];
  flags: ToolFlags;
  timeoutMs: number | null;
}

/** A tool summary with its parameter schema, as find_tools returns it. */
export interface ToolSchemaView extends ToolSummary {
  parameters: JsonSchema;
}

/** A search result: the tool, its score, and why it matched (query words → the tool's words and fields). */
export interface ToolSearchHit extends ToolSchemaView {
  score: number;
  why?: string;
}

/** What an asynchronous search returns: the ranked matches, and a note when the ranking was not the one configured. */
export interface ToolSearchResult {
  hits: ToolSearchHit[];
  /** Why the matches were ranked by keywords only, or only partly by meaning (embeddings slow, failing, computing). */
  note?: string;
}

/** Port into the tool registry and its search index, for find_tools and run_tool. */
export interface ToolCatalogPort {
  /** Ranked matches for a free-text query, or for several phrasings of one need (fused); lexical only. */
  search(query: string | readonly string[], limit: number): ToolSearchHit[];
  /**
   * The same ranking with the embedding model's fused in when one is configured and answers in time (docs/search.md,
   * "Embeddings (optional)"); otherwise the lexical one with a note. Never rejects for the model's sake.
   */
  searchAsync?(
    query: string | readonly string[],
    limit: number,
    options?: { signal?: AbortSignal },
  ): Promise<ToolSearchResult>;
  /** Every tool, systemUse ones only when asked. */
  list(options: { system: boolean }): ToolSummary[];
  /** Exact look-up by name. */
  get(name: string): ToolSchemaView | undefined;
  /** Mark schemas as loaded into this chat; returns the names that exist. */
  loadSchemas(chatId: string, names: string[]): string[];
  /** Why a tool of that name is broken (its step and reason, in words); undefined when it is not broken. */
  broken?(name: string): string | undefined;
  /** Why a tool of that name exists but is not offered in this host or chat; undefined when it is offered or unknown. */
  unavailable?(name: string): string | undefined;
  /** The secret key names the tool is handed (ToolSpec.secrets); undefined when it may use any key or is unknown. */
  secrets?(name: string): readonly string[] | undefined;
}

/** A background task as tools and the UI see it. */
export interface TaskView {
  id: string;
  tool: string;
  summary: string;
  status: 'running' | 'succeeded' | 'failed' | 'timed_out' | 'cancelled' | 'interrupted';
  startedAt: number;
  endedAt: number | null;
  limitMs: number | null;
  outputTail: string;
  result: string | null;
  error: string | null;
}

/** Port into the task registry, for the task tools. */
export interface TaskPort {
  get(id: string): TaskView | undefined;
  list(options?: { chatId?: string }): TaskView[];
  cancel(id: string): boolean;
}

/** The turn's count of store_secret rounds per tool (docs/secrets.md, "Credential auto-heal": at most two). */
export interface HealPort {
  /** Takes one round for `tool`; false when its rounds this turn are used up. */
  take(tool: string): boolean;
}

/** The masked store_secret prompt: asks the user for a value and stores it; the value never comes back. */
export interface SecretPromptPort {
  /** Resolves 'stored' once the value is in the secret store, 'declined' when the user cancelled. */
  ask(
    request: { key: string; question: string; forTool?: string },
    signal: AbortSignal,
  ): Promise<'stored' | 'declined'>;
}

/** Redaction of live output (docs/security.md): what could still become a secret is held back. */
export interface RedactionPort {
  /** A redactor for one stream of text that arrives in pieces. */
  stream(): OutputRedactor;
}

/** One stream's redactor: push returns what is safe to show now; end returns the rest, redacted. */
export interface OutputRedactor {
  push(piece: string): string;
  end(): string;
}

/** Typed ports to the core services a system tool needs; a host leaves out what it does not offer. */
export interface ToolServices {
  /** Present where secrets are known (every core): live output goes through it before it is shown. */
  redaction?: RedactionPort;
  catalog?: ToolCatalogPort;
  tasks?: TaskPort;
  /** Present during a model turn. */
  heal?: HealPort;
  /** Present when the host can ask the user for a secret (store_secret). */
  secretPrompt?: SecretPromptPort;
  /** Present when someone can answer questions (ask_user). */
  askUser?: AskUserPort;
  /** Present in a chat (write_todo, chat_history, write_result). */
  chat?: ChatPort;
  /** Present where subagents can run (not inside a subagent's own child chat). */
  subagents?: SubagentPort;
  /** Present where tools may start child processes (run_command, background_command, open_file). */
  processes?: ProcessPort;
  /** The web tools' settings (settings.json "web"); defaults apply when absent. */
  web?: WebSettings;
  /** The desktop app's offscreen page renderer (download_file render=true); absent elsewhere. */
  pageRenderer?: PageRendererPort;
}

/** Everything a handler receives besides its arguments. */
export interface ToolContext {
  /** Fires on turn cancel, task cancel or the tool's timeout; `signal.reason` says which. */
  signal: AbortSignal;
  progress(update: ProgressUpdate): void;
  log: ToolLogger;
  /** Looks a secret up by key name (keychain, file, env); undefined when absent. */
  getSecret(key: string): Promise<string | undefined>;
  workspace: string;
  chatId: string;
  callId: string;
  /** Epoch ms at which the call times out; null when it has no limit. */
  deadline: number | null;
  /** How this call was approved. */
  approval: CallApproval;
  services: ToolServices;
}

/** Who let a call run (docs/security.md): it decides, e.g., whether a sandboxed command gets the network. */
export type ApprovalAuthority =
  /** A person decided this very call: the dialog, the terminal prompt, or `tools call --yes`. */
  | 'person'
  /** An allow-for-this-chat grant a person gave earlier. */
  | 'chat_grant'
  /** A persisted rule: a shipped default or one the person saved. */
  | 'rule'
  /** A blanket policy nobody looked at per call (`--approve allow`). */
  | 'policy'
  /** The tool is alwaysAllow: nothing was asked. */
  | 'not_needed';

/** How a call came to run, as its handler sees it. */
export interface CallApproval {
  by: ApprovalAuthority;
  /** The rule that allowed it, when `by` is 'rule'. */
  ruleId: string | null;
  /** Whether that rule ships with the app ('default') or was saved by the person ('user'). */
  ruleOrigin: 'default' | 'user' | null;
}

/** A tool's implementation. Throw ToolError (or CredentialError) for failures the model should read. */
export type ToolHandler = (
  args: Record<string, unknown>,
  ctx: ToolContext,
) => Promise<ToolResult> | ToolResult;

/** The full tool definition (docs/tools.md, "The tool definition"). */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
  source: ToolSource;
  flags: ToolFlags;
  /** Limit in ms; NO_TOOL_TIMEOUT for none. */
  timeoutMs: number;
  handler: ToolHandler;
  /**
   * The folder a relative path in the arguments is read from, when not the workspace: a stdio MCP server's own
   * working folder. The gate resolves such paths from it (docs/security.md, "Nothing skips the gate").
   */
  pathsFrom?: string;
  /** For background tools: the task's own limit from the call's arguments (e.g. timeout_min). */
  taskLimitMs?: (args: Record<string, unknown>) => number;
  /**
   * Set by tools that start processes (commands, script tools): whether this call runs them in the OS sandbox.
   * false when the call asked to leave it (`sandbox: false`), which only a person's decision for that call allows.
   */
  sandboxed?: (args: Record<string, unknown>) => boolean;
  /**
   * Run by the dispatcher for every ready call before the confirm gate (alwaysAllow calls too): reads what the
   * call names indirectly (a template file) once, and returns the arguments with it put in, so the approval shows
   * exactly what the handler then uses and nothing can be swapped between them (docs/security.md). Added keys
   * must not be in `parameters`, so the model cannot supply them. A throw becomes the call's error outcome.
   */
  pinArguments?: (args: Record<string, unknown>, scope: PinScope) => Promise<Record<string, unknown>>;
  /**
   * Set by sources whose definitions can change while the app runs (MCP servers): resolves once every change the
   * source has announced is applied to the registry. The dispatcher awaits it before the gate decides a call and
   * again before the call runs, so an approval never outlives the definition it was given for (docs/security.md).
   * Undefined when no change is being applied: nothing to wait for, and no promise made (docs/dispatch.md).
   */
  settled?: () => Promise<void> | undefined;
  /**
   * The secret key names this tool is handed: a script tool's declared `secrets` (none when untrusted), an MCP
   * server's `${secret:NAME}` references. Absent when it may use any key (built-ins that take one from their
   * arguments or settings). store_secret names a tool as needing a key only when it is among these (docs/secrets.md,
   * "The masked prompt").
   */
  secrets?: () => readonly string[];
}

/** What pinArguments may use: the call's workspace and the turn's cancel signal. */
export interface PinScope {
  workspace: string;
  signal: AbortSignal;
}

/** Valid secret key names: environment-variable style, since a key falls back to a variable of the same name. */
export const SECRET_KEY_PATTERN = '^[A-Za-z_][A-Za-z0-9_]{0,127}$';

/** Defaults for the flags a tool does not set. */
export const NO_FLAGS: ToolFlags = {
  alwaysAllow: false,
  concurrent: false,
  background: false,
  systemUse: false,
};

/** A failure the model reads as a result, with a stable code. */
export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Why a credential failed. */
export type CredentialReason = 'missing' | 'rejected' | 'expired';

/** A structured credential failure naming the key, so the executor can prompt for it and retry. */
export class CredentialError extends ToolError {
  constructor(
    readonly key: string,
    readonly reason: CredentialReason,
    message?: string,
  ) {
    super(
      `credential_${reason}`,
      message ??
        (reason === 'missing'
          ? `missing secret ${key}: store it with store_secret`
          : `secret ${key} was ${reason}: store a new value with store_secret`),
      { key, reason },
    );
    this.name = 'CredentialError';
  }
}

/** Builds a builtin ToolSpec with default flags and timeout. */
export function defineTool(
  spec: Omit<ToolSpec, 'source' | 'flags' | 'timeoutMs'> & { flags?: Partial<ToolFlags>; timeoutMs?: number },
): ToolSpec {
  return {
    ...spec,
    source: { kind: 'builtin' },
    flags: { ...NO_FLAGS, ...spec.flags },
    timeoutMs: spec.timeoutMs ?? DEFAULT_TOOL_TIMEOUT,
  };
}
