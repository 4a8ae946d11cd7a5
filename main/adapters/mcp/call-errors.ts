// What the model reads when an MCP request fails: a stable code and a message naming the server.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { CredentialError, ToolError } from '../../../tools/sdk/types';

/** What the mapping knows about the server besides the error. */
export interface ErrorContext {
  server: string;
  /** Why the connection is gone, when it is (e.g. `exited with code 1`). */
  lostReason: () => string | null;
  /** Secret key names used in the server's URL or headers: an HTTP 401/403 names them. */
  credentialKeys: readonly string[];
}

/** Maps a thrown request error to a ToolError (or CredentialError) the model can act on. */
export function mapCallError(error: unknown, context: ErrorContext): ToolError {
  const { server } = context;
  if (error instanceof ToolError) return error;
  if (error instanceof McpError) {
    switch (error.code) {
      case ErrorCode.ConnectionClosed: {
        const reason = context.lostReason() ?? 'closed the connection';
        return new ToolError(
          'mcp_server_disconnected',
          `MCP server "${server}" ${reason} during the call; the call did not finish and the server is reconnecting`,
        );
      }
      case ErrorCode.RequestTimeout:
        return new ToolError(
          'mcp_timeout',
          `MCP server "${server}" did not answer in time: ${stripPrefix(error.message)}`,
        );
      default:
        return new ToolError(
          'mcp_error',
          `MCP server "${server}" answered with an error: ${stripPrefix(error.message)}`,
        );
    }
  }
  const status = httpStatus(error);
  if ((status === 401 || status === 403) && context.credentialKeys.length > 0) {
    const [key] = context.credentialKeys;
    return new CredentialError(
      key as string,
      'rejected',
      `MCP server "${server}" rejected the credentials (HTTP ${status}); check secret ${context.credentialKeys.join(', ')}`,
    );
  }
  return new ToolError(
    'mcp_transport_error',
    `request to MCP server "${server}" failed: ${describeError(error)}`,
  );
}

/** An error's message with its causes (`fetch failed: Headers Timeout Error`). */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    const message = current instanceof Error ? current.message : String(current);
    if (message && !parts.includes(message)) parts.push(message);
    current = current instanceof Error ? (current as Error & { cause?: unknown }).cause : undefined;
  }
  return parts.join(': ') || 'unknown error';
}

function httpStatus(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === 'number' && code >= 100 && code < 600 ? code : undefined;
}

function stripPrefix(message: string): string {
  return message.replace(/^MCP error -?\d+: /, '');
}
