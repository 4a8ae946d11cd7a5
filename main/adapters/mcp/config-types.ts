// The shapes of a parsed mcp.json (docs/tools.md, "MCP servers"): one entry per server, valid or with the reason it is not.
import { DEFAULT_TOOL_TIMEOUT } from '../../../tools/sdk/types';

/** How long a server gets to start and answer `initialize` (docs/tools.md, "MCP servers": 30 s). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

/** A call's limit when the server sets no `timeout` (docs/dispatch.md, "Timeouts": 15 min). */
export const DEFAULT_MCP_TIMEOUT_MS = DEFAULT_TOOL_TIMEOUT;

/** Where a server lives: a command spoken to over stdio, or a URL (Streamable HTTP, SSE as the fallback). */
export type McpEndpoint =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { kind: 'http'; url: string; headers: Record<string, string>; sseOnly: boolean };

/** Which tools of a server the user trusts to skip the confirm gate (docs/security.md, "Nothing skips the gate"). */
export type McpTrust = { kind: 'none' } | { kind: 'read-only' } | { kind: 'tools'; tools: string[] };

/** One valid server entry; strings may still hold `$VAR` and `${secret:NAME}`, expanded at each connect. */
export interface McpServerConfig {
  name: string;
  endpoint: McpEndpoint;
  /** The limit of every call to this server's tools. */
  timeoutMs: number;
  connectTimeoutMs: number;
  disabled: boolean;
  trust: McpTrust;
  /**
   * stdio: whether a server that does not answer a cancelled call within the grace is restarted to stop the work
   * (docs/dispatch.md, "MCP requests"); false keeps it running (and its state) and only asks it to stop.
   */
  restartOnCancel: boolean;
}

/** A server entry as read: valid, or broken with a reason naming the file, the server and the field. */
export type McpServerEntry =
  | { ok: true; config: McpServerConfig; warnings: string[] }
  | { ok: false; name: string; reason: string; disabled: boolean; warnings: string[] };

/** All of mcp.json: its servers, or the reason the whole file could not be read. */
export interface McpConfigFile {
  file: string;
  servers: McpServerEntry[];
  /** Set when the file is not JSON or not an object of servers; `servers` is then empty. */
  error: string | null;
  /** File-level warnings (unknown top-level keys, both `servers` and `mcpServers`). */
  warnings: string[];
}
