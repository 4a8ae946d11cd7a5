// The header and body timeouts of the MCP HTTP transports (docs/dispatch.md, "MCP requests"). Apart from http-fetch.ts,
// so the manager can name them without loading undici before a server needs it (docs/hosts.md, "Fast start").

/** How far past a server's call limit its HTTP client waits, so our own limit always fires first. */
export const HTTP_TIMEOUT_MARGIN_MS = 60_000;

/** Header and body timeouts of an HTTP client, in ms (0 = none). */
export interface HttpClientTimeouts {
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

/** The timeouts for a server whose calls are limited to `limitMs`: past the limit, never shorter than it. */
export function httpTimeoutsFor(limitMs: number): HttpClientTimeouts {
  const ms = Number.isFinite(limitMs) ? limitMs + HTTP_TIMEOUT_MARGIN_MS : 0;
  return { headersTimeoutMs: ms, bodyTimeoutMs: ms };
}
