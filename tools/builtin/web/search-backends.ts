// Web search backends for search_web: a SearXNG instance (keyless JSON API) or the Brave Search API (keyed).
// Their URLs come from the user's settings, not from the model, so they are not held to the address guard:
// a self-hosted SearXNG on localhost is the common case.
import { undici } from './undici-module';
import type { ToolContext } from '../../sdk/types';
import { CredentialError, ToolError } from '../../sdk/types';
import type { SearchSettings } from '../../sdk/web/web-settings';
import { BRAVE_SEARCH_URL } from '../../sdk/web/web-settings';
import { readCapped } from './read-body';

/** One search result. */
export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

/** Runs a query on the configured backend; a missing configuration is an error saying how to add one. */
export async function searchWith(
  settings: SearchSettings,
  query: string,
  count: number,
  ctx: ToolContext,
): Promise<SearchResult[]> {
  switch (settings.backend) {
    case 'searxng':
      if (!settings.url) throw notConfigured('web.search.url is missing for the searxng backend');
      return searxng(settings.url, query, count, ctx.signal);
    case 'brave':
      return brave(settings, query, count, ctx);
    default:
      throw notConfigured('no search backend is configured');
  }
}

async function searxng(
  base: string,
  query: string,
  count: number,
  signal: AbortSignal,
): Promise<SearchResult[]> {
  const url = new URL('search', base.endsWith('/') ? base : `${base}/`);
  url.searchParams.set('q', query);
  url.searchParams.set('format', 'json');
  const { status, text } = await get(url, { accept: 'application/json' }, signal, 'SearXNG');
  if (status === 403) {
    throw new ToolError(
      'search_failed',
      `SearXNG at ${url.origin} refused JSON output (HTTP 403): enable "json" under search.formats in its settings.yml`,
    );
  }
  if (status >= 400) throw new ToolError('search_failed', `SearXNG at ${url.origin} answered HTTP ${status}`);
  const results = parse(text, 'SearXNG').results;
  return list(results)
    .slice(0, count)
    .map((r) => ({ title: str(r.title), url: str(r.url), snippet: plain(str(r.content)) }));
}

async function brave(
  settings: SearchSettings,
  query: string,
  count: number,
  ctx: ToolContext,
): Promise<SearchResult[]> {
  const keyName = settings.keyName || 'BRAVE_API_KEY';
  const key = await ctx.getSecret(keyName);
  if (!key)
    throw new CredentialError(
      keyName,
      'missing',
      `missing secret ${keyName} (a Brave Search API key): store it with store_secret`,
    );
  const url = new URL(settings.url || BRAVE_SEARCH_URL);
  url.searchParams.set('q', query);
  url.searchParams.set('count', String(count));
  const { status, text } = await get(
    url,
    { accept: 'application/json', 'x-subscription-token': key },
    ctx.signal,
    'Brave Search',
  );
  // Brave answers a bad token with 401/403, or with 422 SUBSCRIPTION_TOKEN_INVALID.
  if (status === 401 || status === 403 || (status === 422 && text.includes('SUBSCRIPTION_TOKEN_INVALID'))) {
    throw new CredentialError(
      keyName,
      'rejected',
      `Brave Search rejected the key ${keyName} (HTTP ${status}): store a valid one with store_secret`,
    );
  }
  if (status === 429)
    throw new ToolError('search_failed', 'Brave Search rate limit reached (HTTP 429); try again later');
  if (status >= 400) throw new ToolError('search_failed', `Brave Search answered HTTP ${status}`);
  const body = parse(text, 'Brave Search');
  const web = body.web as Record<string, unknown> | undefined;
  return list(web?.results)
    .slice(0, count)
    .map((r) => ({ title: plain(str(r.title)), url: str(r.url), snippet: plain(str(r.description)) }));
}

/** The largest answer a search backend may send. */
export const MAX_SEARCH_ANSWER_BYTES = 8 * 1024 * 1024;

async function get(url: URL, headers: Record<string, string>, signal: AbortSignal, name: string) {
  // A pool of its own, destroyed after the call: an aborted request leaves no connection behind.
  const { Agent, request } = await undici();
  const agent = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
  try {
    const response = await request(url, { headers, signal, dispatcher: agent });
    // Bounded (docs/robustness.md, "Limits on untrusted structures"): a results page is tens of kB; an endpoint that never stops
    // sending must not grow the app's memory until the call's limit.
    const body = await readCapped(response.body, MAX_SEARCH_ANSWER_BYTES);
    if (body.cut)
      throw new ToolError(
        'search_failed',
        `${name} sent an answer larger than ${MAX_SEARCH_ANSWER_BYTES / (1024 * 1024)} MiB; nothing was read from it`,
      );
    return { status: response.statusCode, text: body.bytes.toString('utf8') };
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if (signal.aborted) throw signal.reason;
    const code =
      (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new ToolError('search_failed', `cannot reach ${name} at ${url.origin}: ${code}`);
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}

function notConfigured(why: string): ToolError {
  return new ToolError(
    'search_not_configured',
    `${why}. Ask the user to set it in $AGENVOY_HOME/desktop/settings.json: "web": {"search": {"backend": "searxng", ` +
      `"url": "http://localhost:8888"}} for a SearXNG instance with JSON output enabled, or "web": {"search": ` +
      `{"backend": "brave", "keyName": "BRAVE_API_KEY"}} for the Brave Search API. Until then use fetch_page on a known URL.`,
  );
}

function parse(text: string, name: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  } catch {
    // Falls through to the error below.
  }
  throw new ToolError('search_failed', `${name} did not answer with JSON`);
}

function list(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value)
    ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null)
    : [];
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

// Snippets arrive with <strong> highlights and entities.
function plain(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
