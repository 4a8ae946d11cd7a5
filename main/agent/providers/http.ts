// The HTTP side of a streaming model call: POST, map statuses to ProviderError kinds, read SSE.
// undici with no body timeout: a model may think for minutes before its next byte.
import type { Response } from 'undici';
import { Agent, fetch } from 'undici';
import type { ProviderErrorKind } from './provider';
import { ProviderError } from './provider';
import { cancelledError, parseRetryAfter } from './retry';
import type { SseMessage } from './sse';
import { parseSse } from './sse';

// One pool for every provider call; keep-alive saves a TLS handshake per model round.
const agent = new Agent({ bodyTimeout: 0, headersTimeout: 10 * 60_000, keepAliveTimeout: 30_000 });

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
}

/** POSTs and returns the response's SSE messages; throws ProviderError for failed statuses. */
export async function openEventStream(post: StreamPost): Promise<AsyncIterable<SseMessage>> {
  let response: Response;
  try {
    response = await fetch(post.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...post.headers },
      body: JSON.stringify(post.body),
      signal: post.signal,
      dispatcher: agent,
    });
  } catch (error) {
    if (post.signal.aborted) throw cancelledError(post.signal);
    const message = `${post.label}: cannot reach ${post.url}: ${describe(error)}`;
    throw new ProviderError('network', message, undefined, { cause: error });
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw statusError(post, response.status, text, parseRetryAfter(response.headers));
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.body || /json|html/i.test(type)) {
    const text = await response.text().catch(() => '');
    throw new ProviderError(
      'bad_request',
      `${post.label}: expected an event stream from ${post.url} but got ${type || 'no body'}` +
        (text ? `: ${errorMessage(text)}` : '') +
        ' (check the base URL)',
      response.status,
    );
  }
  return readEvents(response.body, post);
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

/** The kind a status maps to: 401/403 auth, 429 rate limit, 408/409/5xx server, other 4xx bad request. */
export function statusKind(status: number): ProviderErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limit';
  // 408 and 409 are transient by the APIs' own account (the official SDKs retry them too).
  if (status === 408 || status === 409 || status >= 500) return 'server';
  return 'bad_request';
}

/** The human part of an error body in either API's shape (or Ollama's `{error: "..."}`), else the text. */
export function errorMessage(bodyText: string): string {
  const text = bodyText.trim();
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const error = body.error;
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
      return (error as { message: string }).message;
    }
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: a proxy's HTML page or plain text; show its start.
  }
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

async function* readEvents(
  body: AsyncIterable<Uint8Array>,
  post: Pick<StreamPost, 'label' | 'signal'>,
): AsyncGenerator<SseMessage> {
  try {
    yield* parseSse(body);
  } catch (error) {
    if (post.signal.aborted) throw cancelledError(post.signal);
    if (error instanceof ProviderError) throw error;
    const message = `${post.label}: the connection broke mid-stream: ${describe(error)}`;
    throw new ProviderError('stream_cut', message, undefined, { cause: error });
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici says "fetch failed" or "terminated"; the useful part (ECONNREFUSED, other side closed) is the cause.
  const cause: unknown = error.cause;
  if (!(cause instanceof Error)) return error.message;
  const code = (cause as NodeJS.ErrnoException).code;
  const suffix = code && !cause.message.includes(code) ? ` (${code})` : '';
  return `${error.message}: ${cause.message}${suffix}`;
}
