// The visible state of one MCP server (docs/tools.md, "MCP servers"), for the tools panel, the CLI and the log.
import type { CredentialReason } from '../../../tools/sdk/types';
import type { McpTransportKind } from './connect';

/** Where a server's connection stands. */
export type McpServerState =
  | { status: 'connecting'; attempt: number }
  | { status: 'ready'; transport: McpTransportKind; tools: number; since: number }
  | { status: 'failed'; reason: string; credential?: { key: string; reason: CredentialReason } }
  | { status: 'disabled' }
  | { status: 'reconnecting'; reason: string; attempt: number; retryAt: number };

/** One server as the UI shows it. */
export interface McpServerView {
  name: string;
  /** `stdio` or `http` from mcp.json; null when the entry is too broken to tell. */
  endpoint: 'stdio' | 'http' | null;
  state: McpServerState;
  /** The registered names of its tools. */
  tools: string[];
  /** Config warnings (unknown keys, unset variables) and tools that could not be registered. */
  warnings: string[];
  /** Trusted tools (names on the server) that ask because their definition changed since it was recorded. */
  changed: string[];
}

/** One line describing a state, for logs and the CLI. */
export function describeState(state: McpServerState): string {
  switch (state.status) {
    case 'connecting':
      return state.attempt > 1 ? `connecting (attempt ${state.attempt})` : 'connecting';
    case 'ready':
      return `ready over ${state.transport}, ${state.tools} tool${state.tools === 1 ? '' : 's'}`;
    case 'failed':
      return `failed: ${state.reason}`;
    case 'disabled':
      return 'disabled in mcp.json';
    case 'reconnecting':
      return `reconnecting (attempt ${state.attempt} in ${Math.max(0, Math.ceil((state.retryAt - Date.now()) / 1000))} s): ${state.reason}`;
  }
}
