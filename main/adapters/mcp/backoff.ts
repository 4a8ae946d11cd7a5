// How a crashed server's reconnect attempts are spaced (docs/tools.md, "MCP servers": reconnect with backoff).

/** `initialMs`, doubling up to `maxMs`, giving up after `maxAttempts`. */
export interface Backoff {
  initialMs: number;
  maxMs: number;
  maxAttempts: number;
  /** A session that stayed up this long resets the attempt count; a crash loop keeps backing off. */
  stableMs: number;
}

/** The default backoff: 1 s, 2 s, 4 s … 30 s, ten attempts. */
export const DEFAULT_BACKOFF: Backoff = { initialMs: 1000, maxMs: 30_000, maxAttempts: 10, stableMs: 30_000 };

/** The wait before reconnect attempt `attempt` (2 is the first retry). */
export function retryDelay(backoff: Backoff, attempt: number): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, attempt - 2));
}
