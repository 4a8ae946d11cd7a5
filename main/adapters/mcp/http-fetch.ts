// The HTTP client of the MCP HTTP transports: undici with header and body timeouts past the tool's limit,
// because Node's fetch cuts a response that stays silent for 5 min (docs/dispatch.md, "MCP requests") long before a 15 min call ends.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, fetch as undiciFetch } from 'undici';
import { limitResponse } from './http-message-limit';

export type { HttpClientTimeouts } from './http-timeouts';
export { HTTP_TIMEOUT_MARGIN_MS, httpTimeoutsFor } from './http-timeouts';
import type { HttpClientTimeouts } from './http-timeouts';

/** A fetch for the SDK transports, and the close of its connection pools. */
export interface McpFetch {
  fetch: FetchLike;
  close(): Promise<void>;
}

/**
 * A fetch whose requests use `timeouts`. GET requests open the server's notification stream, which is
 * silent by design between notifications, so only its headers are timed.
 */
export function createMcpFetch(timeouts: HttpClientTimeouts): McpFetch {
  const calls = new Agent({ headersTimeout: timeouts.headersTimeoutMs, bodyTimeout: timeouts.bodyTimeoutMs });
  const stream = new Agent({ headersTimeout: timeouts.headersTimeoutMs, bodyTimeout: 0 });
  const pace = streamPacer();
  const fetch: FetchLike = async (url, init) => {
    const get = (init?.method ?? 'GET').toUpperCase() === 'GET';
    if (get) await pace(init?.signal ?? undefined);
    const dispatcher = get ? stream : calls;
    const link = linkedSignal(init?.signal ?? undefined);
    // undici's Request/Response types are its own; at runtime they are the WHATWG ones the SDK expects.
    const request = { ...(init as object), dispatcher, signal: link.signal } as Parameters<
      typeof undiciFetch
    >[1];
    return undiciFetch(url, request).then(
      // One message is bounded (docs/security.md, "A hostile MCP server").
      (response) => limitResponse(response as unknown as Response, undefined, link.unlink),
      (error: unknown) => {
        link.unlink();
        throw error;
      },
    );
  };
  return {
    fetch,
    async close() {
      // destroy, not close: close would wait for the open notification stream to end.
      await Promise.allSettled([calls.destroy(), stream.destroy()]);
    },
  };
}

/** The least and the most time between two openings of the notification stream. */
export const STREAM_REOPEN_MS = { min: 1000, max: 30_000 };

/**
 * Waits before the notification stream (a GET) is opened again (docs/security.md, "A hostile MCP server"). The SDK
 * reopens it whenever the server ends it, after the server's own `retry:` delay, and counts no attempt for a stream
 * that ended cleanly: a server that answers every GET with `retry: 0` and closes kept the client in a loop of
 * requests for as long as the app ran. Openings are at least 1 s apart, twice as far each time the stream had to wait,
 * up to 30 s; a stream that lasted longer than that starts again from 1 s.
 */
function streamPacer(): (signal: AbortSignal | undefined) => Promise<void> {
  let last = -Infinity;
  let gap = STREAM_REOPEN_MS.min;
  return async (signal) => {
    const wait = last + gap - Date.now();
    if (wait > 0) {
      await sleep(wait, undefined, { signal });
      gap = Math.min(gap * 2, STREAM_REOPEN_MS.max);
    } else if (Date.now() - last > STREAM_REOPEN_MS.max) gap = STREAM_REOPEN_MS.min;
    last = Date.now();
  };
}

/**
 * A signal of the request's own, aborted with `outer` until `unlink`. The SDK hands every request its transport's
 * signal, which lives as long as the session, and undici adds a listener to a request's signal that goes only when
 * the request is collected: one per call piled up on it (1,501 after 2,000 calls of the MCP bench). Here the outer
 * signal holds one listener per request in flight, removed when its response ends.
 */
function linkedSignal(outer: AbortSignal | undefined): {
  signal: AbortSignal | undefined;
  unlink: () => void;
} {
  if (!outer) return { signal: undefined, unlink: () => undefined };
  const inner = new AbortController();
  if (outer.aborted) {
    inner.abort(outer.reason);
    return { signal: inner.signal, unlink: () => undefined };
  }
  const forward = () => inner.abort(outer.reason);
  outer.addEventListener('abort', forward, { once: true });
  return { signal: inner.signal, unlink: () => outer.removeEventListener('abort', forward) };
}
