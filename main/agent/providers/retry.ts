// Retrying a model call: 429, 5xx and failed connections, with backoff that honours retry-after,
// and only while nothing has been yielded, so a caller never sees a response start twice.
import type { StreamEvent } from './provider';
import { ProviderError } from './provider';
import { sleep as waitFor } from '../../../tools/sdk/values';

/** How often and how patiently a call is retried. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Backoff before the second attempt; it doubles after each failure. */
  baseDelayMs: number;
  /** Ceiling of the computed backoff. */
  maxDelayMs: number;
  /** Ceiling of a server's retry-after, so a hostile or confused server cannot park a turn for hours. */
  maxRetryAfterMs: number;
}

/** Defaults close to the official SDKs', a little more patient since a turn is worth keeping. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

/** What a retry reports before it waits, so a host can say "retrying in 4 s". */
export interface RetryNotice {
  /** The attempt that failed, from 1. */
  attempt: number;
  delayMs: number;
  error: ProviderError;
}

/** Options of withRetry. */
export interface RetryOptions {
  policy: RetryPolicy;
  signal?: AbortSignal;
  onRetry?: (notice: RetryNotice) => void;
  random?: () => number;
}

/** The wait a response asks for: `retry-after-ms`, else `retry-after` in seconds or as an HTTP date. */
export function parseRetryAfter(
  headers: { get(name: string): string | null },
  now: number = Date.now(),
): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** True for failures that may pass by themselves: rate limits, server errors, unreachable or stalled servers. */
export function isRetryable(error: ProviderError): boolean {
  return (
    error.kind === 'rate_limit' ||
    error.kind === 'server' ||
    error.kind === 'network' ||
    error.kind === 'timeout'
  );
}

/** How many times a stalled server is tried in one call: each try may wait the whole first-byte limit. */
export const MAX_TIMEOUT_ATTEMPTS = 2;

/** The wait before the attempt after `attempt`: the server's retry-after (capped) or jittered backoff. */
export function retryDelayMs(
  attempt: number,
  error: ProviderError,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, policy.maxRetryAfterMs);
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  // Jitter spreads clients that failed together, so they do not come back together.
  return Math.round(backoff * (0.75 + 0.25 * random()));
}

/** Runs `attempt` until it succeeds, retrying only before its first event; later failures become `stream_cut`. */
export async function* withRetry(
  attempt: () => AsyncIterable<StreamEvent>,
  options: RetryOptions,
): AsyncGenerator<StreamEvent> {
  const { policy, signal } = options;
  let timeouts = 0;
  for (let n = 1; ; n++) {
    let yielded = false;
    try {
      for await (const event of attempt()) {
        // Events already parsed from the same chunk must not reach a caller that has cancelled.
        if (signal?.aborted) throw cancelledError(signal);
        yielded = true;
        yield event;
      }
      return;
    } catch (error) {
      if (signal?.aborted) throw isCancel(error) ? error : cancelledError(signal);
      // Transport failures arrive as ProviderErrors already; anything else is a bug and surfaces as one.
      if (!(error instanceof ProviderError)) throw error;
      const failure = error;
      if (failure.kind === 'cancelled') throw failure;
      if (yielded) throw asStreamCut(failure);
      if (!isRetryable(failure) || n >= policy.maxAttempts) throw failure;
      // A stall is retried once: five waits of 300 s would hold a headless turn for half an hour.
      if (failure.kind === 'timeout' && ++timeouts >= MAX_TIMEOUT_ATTEMPTS) throw failure;
      const delayMs = retryDelayMs(n, failure, policy, options.random);
      options.onRetry?.({ attempt: n, delayMs, error: failure });
      await sleep(delayMs, signal);
    }
  }
}

/** Waits `ms`, rejecting with a `cancelled` ProviderError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return waitFor(ms, signal).catch(() => {
    throw cancelledError(signal);
  });
}

/** The `cancelled` error for an aborted signal, carrying its reason's message. */
export function cancelledError(signal?: AbortSignal): ProviderError {
  const reason: unknown = signal?.reason;
  const message = reason instanceof Error && reason.message ? reason.message : 'cancelled';
  return new ProviderError('cancelled', message, undefined, { cause: reason });
}

function isCancel(error: unknown): boolean {
  return error instanceof ProviderError && error.kind === 'cancelled';
}

// After a partial answer went out, the caller must know it is partial: any failure is a cut then.
function asStreamCut(error: ProviderError): ProviderError {
  if (error.kind === 'stream_cut') return error;
  return new ProviderError('stream_cut', `the response was cut off: ${error.message}`, error.status, {
    cause: error,
  });
}
