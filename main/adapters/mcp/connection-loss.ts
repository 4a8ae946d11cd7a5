// Tells a lost HTTP connection (server gone, session forgotten) from an error of one request: HTTP has no
// process to watch, so the transport's errors are the only sign that a server died.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const LOST_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const LOST_MESSAGES = [
  /SSE stream disconnected/i,
  /Maximum reconnection attempts/i,
  /Failed to reconnect/i,
  /\bterminated\b/i,
];

/** Whether a transport error means the session is gone (as opposed to one request failing or timing out). */
export function isConnectionLost(error: unknown): boolean {
  if (error instanceof StreamableHTTPError) {
    // 404: the server forgot the session (it restarted); some servers say so with a 400 instead.
    return error.code === 404 || (error.code === 400 && /session/i.test(error.message));
  }
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string' && LOST_CODES.has(code)) return true;
    if (LOST_MESSAGES.some((pattern) => pattern.test(current instanceof Error ? current.message : '')))
      return true;
    current = (current as Error & { cause?: unknown }).cause;
  }
  return false;
}
