// The HTTP side of a streaming model call: POST, map statuses to ProviderError kinds, read SSE.
// undici's own timeouts are off: our StallTimer bounds the wait for the first byte of an event and between them with the
// settings' limits (a local CPU model may think for minutes), and the SSE parser bounds one event.
import type * as Undici from 'undici';
import type { Agent, Response } from 'undici';
import { formatBytes } from '../../core/argument-size';
import { clipNoted } from '../../core/clip-chars';
import type { ProviderErrorKind } from './provider';
import { ProviderError } from './provider';
import { cancelledError, parseRetryAfter } from './retry';
import type { SseMessage } from './sse';
import { SseEventTooLarge, SseParser } from './sse';
import type { StreamLimits } from './stream-limits';
import { resolveStreamLimits, StallTimer } from './stream-limits';

// One pool for every provider call; keep-alive saves a TLS handshake per model round. undici loads with the first
// call, not when the app starts (docs/hosts.md, "Fast start").
let client: Promise<{ fetch: typeof Undici.fetch; agent: Agent }> | null = null;
const providerClient = () =>
  (client ??= import('undici').then(({ Agent, fetch }) => ({
    fetch,
    agent: new Agent({ bodyTimeout: 0, headersTimeout: 0, keepAliveTimeout: 30_000 }),
  })));

/** One streaming POST. */
export interface StreamPost {
  /** Names the service in messages ("Anthropic", "OpenAI-compatible server"). */
  label: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
  /** The secret name of the key sent, for `auth` errors; null when none is configured. */
  keyName: string | null;
  /** Bounds on the response (defaults: DEFAULT_STREAM_LIMITS). */
  limits?: Partial<StreamLimits>;
  /**
   * A count the caller's decoder raises for each event that carried part of the answer; an event after which it has
   * not grown (an empty delta, a ping) is no progress. Absent: every event is.
   */
  progress?: () => number;
}

/** POSTs and returns the response's SSE messages; throws ProviderError for failed statuses and stalls. */
export async function openEventStream(post: StreamPost): Promise<AsyncIterable<SseMessage>> {
  const limits = resolveStreamLimits(post.limits);
  // Loaded before the first-byte wait starts, so loading it is never counted as the server's silence.
  const http = await providerClient();
  const stall = new StallTimer(limits);
  const signal = AbortSignal.any([post.signal, stall.signal]);
  // The first-byte wait covers connecting, the headers and the body up to the first byte of an event.
  stall.waitFirstByte();
  try {
    return await open(http, post, signal, stall, limits);
  } catch (error) {
    stall.stop();
    throw error;
  }
}

async function open(
  { fetch, agent }: Awaited<ReturnType<typeof providerClient>>,
  post: StreamPost,
  signal: AbortSignal,
  stall: StallTimer,
  limits: StreamLimits,
): Promise<AsyncIterable<SseMessage>> {
  let response: Response;
  try {
    response = await fetch(post.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...post.headers },
      body: JSON.stringify(post.body),
      signal,
      dispatcher: agent,
      // Never followed: undici re-sends the POST, its body (the transcript) and its headers to the new address,
      // dropping only Authorization across origins, so Anthropic's x-api-key went with it (docs/security.md).
      redirect: 'manual',
    });
  } catch (error) {
    if (post.signal.aborted) throw cancelledError(post.signal);
    if (stall.fired) throw stall.error(post.label);
    const message = `${post.label}: cannot reach ${post.url}: ${describe(error)}`;
    throw new ProviderError('network', message, undefined, { cause: error });
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => undefined);
    throw redirectError(post, response.status, response.headers.get('location'));
  }
  if (!response.ok) {
    const text = await boundedText(response, limits.eventBytes);
    if (stall.fired) throw stall.error(post.label);
    throw statusError(post, response.status, text, parseRetryAfter(response.headers));
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.body || /json|html/i.test(type)) {
    const text = await boundedText(response, limits.eventBytes);
    if (stall.fired) throw stall.error(post.label);
    throw new ProviderError(
      'bad_request',
      `${post.label}: expected an event stream from ${post.url} but got ${type || 'no body'}` +
        (text ? `: ${errorMessage(text)}` : '') +
        ' (check the base URL)',
      response.status,
    );
  }
  return readEvents(response.body, post, stall, limits);
}

/** The ProviderError for a failed HTTP status, with the server's own message. */
export function statusError(
  post: Pick<StreamPost, 'label' | 'keyName' | 'url'>,
  status: number,
  bodyText: string,
  retryAfterMs?: number,
): ProviderError {
  const detail = errorMessage(bodyText) || 'no details';
  const kind = statusKind(status);
  if (kind === 'auth') {
    const key =
      post.keyName === null
        ? 'no API key is configured (apiKeyName is null)'
        : `the API key ${post.keyName} was rejected`;
    return new ProviderError('auth', `${post.label}: HTTP ${status}, ${key}: ${detail}`, status, {
      keyName: post.keyName,
    });
  }
  const details = retryAfterMs === undefined ? {} : { retryAfterMs };
  return new ProviderError(kind, `${post.label}: HTTP ${status}: ${detail}`, status, details);
}

/** A redirect is refused, not followed: the settings name the one address the key and the chat go to. */
function redirectError(post: Pick<StreamPost, 'label' | 'url'>, status: number, location: string | null) {
  return new ProviderError(
    'bad_request',
    `${post.label}: ${post.url} answered with a redirect (HTTP ${status})` +
      `${location ? ` to ${location}` : ''}: the request, its key and the chat are not sent on; ` +
      'use the address it names as the base URL if you trust it',
    status,
  );
}

/** The kind a status maps to: 401/403 auth, 429 rate limit, 408/409/5xx server, other 4xx bad request. */
export function statusKind(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limit';
  // 408 and 409 are transient by the APIs' own account (the official SDKs retry them too).
  if (status === 408 || status === 409 || status >= 500) return 'server';
  return 'bad_request';
}

/** The human part of an error body in either API's shape (or Ollama's `{error: "..."}`), else the text's start. */
export function errorMessage(bodyText: string): string {
  const text = bodyText.trim();
  // A JSON body's message is cut too, only later: a server's "message" of megabytes is no message
  // (docs/robustness.md, "Model servers").
  const message = jsonMessage(text);
  return message === undefined ? clipNoted(text, BODY_START_CHARS) : serverMessage(message);
}

/** A server's error message (a body's, or an error event's in the stream) as shown: cut past MESSAGE_CHARS. */
export function serverMessage(message: string): string {
  return clipNoted(message, MESSAGE_CHARS);
}

/** How much of a body that is not JSON (a proxy's HTML page, plain text) is shown. */
const BODY_START_CHARS = 500;
/** How much of the message of a JSON error body is shown (real ones are a few hundred characters). */
const MESSAGE_CHARS = 2000;

function jsonMessage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const error = body.error;
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
      return (error as { message: string }).message;
    }
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON.
  }
  return undefined;
}

async function* readEvents(
  body: AsyncIterable<Uint8Array>,
  post: Pick<StreamPost, 'label' | 'signal' | 'progress'>,
  stall: StallTimer,
  limits: StreamLimits,
): AsyncGenerator<SseMessage> {
  try {
    // Only bytes of events count, not comments (`: keep-alive`): comments without end still stall
    // (docs/robustness.md). A long event arriving slowly is progress, until it ends without any of the answer in it:
    // events that carry nothing (empty deltas, pings) without end stall as well. Only the server is timed, not the
    // caller's handling of what arrived.
    const parser = new SseParser({ maxEventBytes: limits.eventBytes });
    let pending = 0;
    for await (const chunk of body) {
      const messages = parser.push(chunk);
      const progressed = messages.length > 0 || parser.pendingBytes > pending;
      pending = parser.pendingBytes;
      if (!progressed) continue;
      stall.pause();
      let empty = false;
      for (const message of messages) {
        const before = post.progress?.();
        yield message;
        if (before === undefined || (post.progress?.() ?? 0) > before) stall.answer();
        else empty = true;
      }
      if (empty && stall.quietTooLong()) throw stall.error(post.label);
      parser.check();
      stall.waitNext();
    }
    yield* parser.end();
  } catch (error) {
    if (post.signal.aborted) throw cancelledError(post.signal);
    if (stall.fired) throw stall.error(post.label);
    if (error instanceof SseEventTooLarge) {
      throw new ProviderError(
        'too_large',
        `${post.label}: one event of the stream passed ${formatBytes(error.limit, true)} ` +
          '(settings.json limits.providerEventBytes); the stream was stopped',
      );
    }
    if (error instanceof ProviderError) throw error;
    const message = `${post.label}: the connection broke mid-stream: ${describe(error)}`;
    throw new ProviderError('stream_cut', message, undefined, { cause: error });
  } finally {
    stall.stop();
  }
}

/** A response's text, never more than `max` bytes of it (an error page is read for its message). */
export async function boundedText(response: Response, max: number): Promise<string> {
  if (!response.body) return '';
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      const piece = Buffer.from(chunk as Uint8Array);
      parts.push(piece.subarray(0, Math.max(0, max - size)));
      size += piece.length;
      if (size >= max) break;
    }
  } catch {
    // What arrived is enough for a message; a stall shows through the caller's check.
  }
  return Buffer.concat(parts).toString('utf8');
}

/** What went wrong with a request that got no answer, with the cause undici hides (ECONNREFUSED, ENOTFOUND). */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici says "fetch failed" or "terminated"; the useful part (ECONNREFUSED, other side closed) is the cause.
  const cause: unknown = error.cause;
  if (!(cause instanceof Error)) return error.message;
  const code = (cause as NodeJS.ErrnoException).code;
  const suffix = code && !cause.message.includes(code) ? ` (${code})` : '';
  return `${error.message}: ${cause.message}${suffix}`;
}
