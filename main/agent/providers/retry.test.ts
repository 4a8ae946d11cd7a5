import { describe, expect, it } from 'vitest';
import type { StreamEvent } from './provider';
import { ProviderError } from './provider';
import type { RetryNotice } from './retry';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelayMs, sleep, withRetry } from './retry';
import { collectStream } from './testing/collect-stream';

const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] ?? null });
const fast = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1, maxDelayMs: 5 };
// An attempt that fails before its first event; `onCall` counts the attempts.
const failing =
  (error: unknown, onCall: () => void = () => {}) =>
  (): AsyncIterable<StreamEvent> => {
    onCall();
    return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
  };

describe('parseRetryAfter', () => {
  it('reads seconds, an HTTP date and retry-after-ms, preferring the last', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(parseRetryAfter(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }), now)).toBe(10_000);
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 31 Dec 2025 00:00:00 GMT' }), now)).toBe(0);
    expect(parseRetryAfter(headers({ 'retry-after': '3', 'retry-after-ms': '250' }), now)).toBe(250);
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  it('honours retry-after up to the cap, else backs off exponentially with jitter', () => {
    const limited = (ms: number) => new ProviderError('rate_limit', 'x', 429, { retryAfterMs: ms });
    expect(retryDelayMs(1, limited(2000), DEFAULT_RETRY_POLICY)).toBe(2000);
    expect(retryDelayMs(1, limited(3_600_000), DEFAULT_RETRY_POLICY)).toBe(
      DEFAULT_RETRY_POLICY.maxRetryAfterMs,
    );
    const server = new ProviderError('server', 'x', 500);
    expect(retryDelayMs(1, server, DEFAULT_RETRY_POLICY, () => 1)).toBe(1000);
    expect(retryDelayMs(3, server, DEFAULT_RETRY_POLICY, () => 1)).toBe(4000);
    expect(retryDelayMs(3, server, DEFAULT_RETRY_POLICY, () => 0)).toBe(3000);
    expect(retryDelayMs(20, server, DEFAULT_RETRY_POLICY, () => 1)).toBe(DEFAULT_RETRY_POLICY.maxDelayMs);
  });
});

describe('withRetry', () => {
  it('retries retryable failures before the first event and reports each retry', async () => {
    let calls = 0;
    const notices: RetryNotice[] = [];
    const result = await collectStream(
      withRetry(
        async function* () {
          calls += 1;
          if (calls < 3) throw new ProviderError(calls === 1 ? 'rate_limit' : 'server', 'busy', 503);
          yield { type: 'text', delta: 'ok' } satisfies StreamEvent;
        },
        { policy: fast, onRetry: (n) => notices.push(n) },
      ),
    );
    expect(result.error).toBeUndefined();
    expect(result.text).toBe('ok');
    expect(notices.map((n) => [n.attempt, n.error.kind])).toEqual([
      [1, 'rate_limit'],
      [2, 'server'],
    ]);
  });

  it('stops after maxAttempts and does not retry auth or bad requests', async () => {
    let calls = 0;
    const count = () => void (calls += 1);
    const attempt = (kind: 'server' | 'auth' | 'bad_request') =>
      failing(new ProviderError(kind, kind), count);
    const server = await collectStream(withRetry(attempt('server'), { policy: { ...fast, maxAttempts: 3 } }));
    expect([calls, (server.error as ProviderError).kind]).toEqual([3, 'server']);
    calls = 0;
    await collectStream(withRetry(attempt('auth'), { policy: fast }));
    await collectStream(withRetry(attempt('bad_request'), { policy: fast }));
    expect(calls).toBe(2);
  });

  it('never retries once an event went out: the failure becomes stream_cut', async () => {
    let calls = 0;
    const result = await collectStream(
      withRetry(
        async function* () {
          calls += 1;
          yield { type: 'text', delta: 'partial' } satisfies StreamEvent;
          throw new ProviderError('server', 'overloaded', 529);
        },
        { policy: fast },
      ),
    );
    expect(calls).toBe(1);
    expect(result.text).toBe('partial');
    expect(result.error).toMatchObject({ kind: 'stream_cut', status: 529 });
  });

  it('a cancel during the backoff wait ends at once as cancelled', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('stopped by the user')), 30);
    const result = await collectStream(
      withRetry(failing(new ProviderError('rate_limit', 'slow down', 429, { retryAfterMs: 10_000 })), {
        policy: DEFAULT_RETRY_POLICY,
        signal: controller.signal,
      }),
    );
    expect(result.error).toMatchObject({ kind: 'cancelled', message: 'stopped by the user' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('lets a programming error through unchanged', async () => {
    const bug = new TypeError('x is undefined');
    const result = await collectStream(withRetry(failing(bug), { policy: fast }));
    expect(result.error).toBe(bug);
  });

  it('sleep rejects with cancelled on an already aborted signal', async () => {
    await expect(sleep(10, AbortSignal.abort())).rejects.toMatchObject({ kind: 'cancelled' });
  });
});
