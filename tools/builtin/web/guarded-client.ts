// An HTTP client for URLs the model chose: every hop (redirects too) passes the address guard, and every
// connection goes to the address the guard checked.
import http from 'node:http';
import type { Agent, Dispatcher } from 'undici';
import { undici } from './undici-module';
import type { CallApproval } from '../../sdk/types';
import { ToolError } from '../../sdk/types';
import type { AddressGuard } from '../../sdk/web/address-guard';

/** Most redirects followed before giving up. */
export const MAX_REDIRECTS = 10;

/** One request through the guard. */
export interface GuardedRequest {
  method: string;
  url: URL;
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal: AbortSignal;
  /** Header names (lower case) dropped when a redirect leaves the origin, besides the usual credentials. */
  sensitiveHeaders?: string[];
  /** The secret the body carries, if any: a redirect that would resend the body to another origin is refused. */
  bodySecret?: string;
  /**
   * The tool that sends this request: set when no person approved this very call (a rule, a chat grant or a policy
   * allowed its address), so a redirect to another origin is not followed but reported (an open redirect on the
   * allowed site must not carry the model's data on to a site nobody allowed; docs/security.md, "Data leaving the
   * machine"). See `originBound`.
   */
  stayOnOrigin?: string;
}

/**
 * Whether `tool`'s request follows redirects to another origin: only when a person approved this very call, having
 * seen its address. A rule, an "allow for this chat" grant and `--approve allow` cover the address the call names
 * (its site), not wherever that site sends it.
 */
export function originBound(approval: CallApproval, tool: string): Pick<GuardedRequest, 'stayOnOrigin'> {
  return approval.by === 'person' ? {} : { stayOnOrigin: tool };
}

/** The final response, with the request that produced it. */
export interface GuardedResponse {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
  url: URL;
  redirects: number;
  /** The headers and body actually sent on the final hop. */
  sent: { headers: Record<string, string>; body: boolean };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/** An undici client pinned by an AddressGuard; close it when done (it owns its connections). */
export class GuardedClient {
  private agent: Promise<Agent> | null = null;

  constructor(private readonly guard: AddressGuard) {}

  /** The client's connection pool, made with its first request. */
  private pool(): Promise<Agent> {
    // No header or body timeouts of undici's own: the tool's signal carries the limit (docs/dispatch.md, "Limits of the built-in tools").
    this.agent ??= undici().then(
      ({ Agent }) =>
        new Agent({ connect: { lookup: this.guard.lookup() }, headersTimeout: 0, bodyTimeout: 0 }),
    );
    return this.agent;
  }

  /** Sends the request, following redirects; each hop is checked before it connects. */
  async request(input: GuardedRequest): Promise<GuardedResponse> {
    let url = input.url;
    let method = input.method.toUpperCase();
    let headers = lowerKeys(input.headers ?? {});
    let body = input.body;
    const sensitive = [...CREDENTIAL_HEADERS, ...(input.sensitiveHeaders ?? []).map((h) => h.toLowerCase())];
    for (let redirects = 0; ; redirects++) {
      this.guard.checkUrl(url);
      const response = await this.send(url, method, headers, body, input.signal);
      const location = headerValue(response.headers.location);
      if (!REDIRECTS.has(response.statusCode) || !location) {
        return {
          status: response.statusCode,
          statusText: http.STATUS_CODES[response.statusCode] ?? '',
          headers: response.headers,
          body: response.body,
          url,
          redirects,
          sent: { headers, body: body !== undefined },
        };
      }
      await response.body.dump().catch(() => undefined);
      if (redirects >= MAX_REDIRECTS) {
        throw new ToolError(
          'too_many_redirects',
          `stopped after ${MAX_REDIRECTS} redirects (last to ${location})`,
        );
      }
      const next = resolveLocation(location, url);
      // 303 always, and 301/302 after a POST, continue as a GET without the body (as browsers do).
      if (
        response.statusCode === 303 ||
        ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')
      ) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        headers = omit(headers, ['content-type', 'content-length']);
      }
      // Credentials meant for one origin never follow a redirect to another (docs/security.md, "Redaction"); a
      // 307/308, or a 301/302 of another method than POST, would resend a body that holds one.
      if (next.origin !== url.origin && body !== undefined && input.bodySecret) {
        throw new ToolError(
          'redirect_refused',
          `${url.origin} redirected (HTTP ${response.statusCode}) to ${next.href}, another origin, and the request ` +
            `body holds the secret ${input.bodySecret}, so it was not sent there; call again with that URL if it ` +
            'should get it',
          { location: next.href, secret: input.bodySecret },
        );
      }
      if (next.origin !== url.origin && input.stayOnOrigin) {
        throw new ToolError(
          'redirect_refused',
          `${url.origin} redirected (HTTP ${response.statusCode}) to ${next.href}, another origin; this call was ` +
            'allowed for the site it names (by a rule, a grant for this chat or a policy), not for where that site ' +
            `sends it, so the redirect was not followed: call ${input.stayOnOrigin} with that URL to ask for it`,
          { location: next.href },
        );
      }
      if (next.origin !== url.origin) headers = omit(headers, sensitive);
      url = next;
    }
  }

  /** Closes every connection at once. */
  async close(): Promise<void> {
    const agent = await this.agent?.catch(() => null);
    await agent?.destroy().catch(() => undefined);
  }

  private async send(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
    signal: AbortSignal,
  ): Promise<Dispatcher.ResponseData> {
    try {
      const [{ request }, dispatcher] = await Promise.all([undici(), this.pool()]);
      return await request(url, {
        dispatcher,
        method: method as Dispatcher.HttpMethod,
        headers,
        body,
        signal,
      });
    } catch (error) {
      throw networkError(error, url);
    }
  }
}

/** A network failure as a ToolError the model can read; ToolErrors (a blocked address) pass through. */
export function networkError(error: unknown, url: URL): unknown {
  if (error instanceof ToolError) return error;
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof ToolError) return cause;
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  return new ToolError('request_failed', `cannot reach ${url.host}: ${detail}`, { host: url.host });
}

/** The first value of a header as a string. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function resolveLocation(location: string, base: URL): URL {
  try {
    return new URL(location, base);
  } catch {
    throw new ToolError('request_failed', `the server redirected to an invalid URL: ${location}`);
  }
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function omit(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k)));
}
