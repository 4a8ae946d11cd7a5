// Calls to an OpenAI-compatible media API (images, speech): the key comes from the secret store, a refused key
// is a credential error naming it, and the request stops with the call's signal.
import { undici } from './undici-module';
import type { ToolContext } from '../../sdk/types';
import { clipNoted } from '../../sdk/clip-chars';
import { CredentialError, ToolError } from '../../sdk/types';
import { headerValue } from './guarded-client';
import { readCapped } from './read-body';
import type { MediaApiSettings } from '../../sdk/web/web-settings';

/** The largest media response read (a few images or minutes of audio fit easily). */
export const MAX_MEDIA_BYTES = 200 * 1024 * 1024;

/** A media API's answer. */
export interface MediaResponse {
  contentType: string;
  bytes: Buffer;
}

/** POSTs `payload` as JSON to `{baseUrl}{path}`; `what` names the API in messages (e.g. "images"). */
export async function postMediaApi(
  api: Required<MediaApiSettings>,
  path: string,
  payload: Record<string, unknown>,
  ctx: ToolContext,
  what: string,
): Promise<MediaResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (api.keyName) {
    const key = await ctx.getSecret(api.keyName);
    if (!key) {
      throw new CredentialError(
        api.keyName,
        'missing',
        `missing secret ${api.keyName} (the key of the ${what} API at ${api.baseUrl}): store it with store_secret`,
      );
    }
    headers.authorization = `Bearer ${key}`;
  }
  const url = `${api.baseUrl.replace(/\/+$/, '')}${path}`;
  // Generation can take minutes before the first byte: no undici timeouts, the call's limit governs.
  const { Agent, request } = await undici();
  const agent = new Agent({ headersTimeout: 0, bodyTimeout: 0 });
  try {
    const response = await request(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(payload),
      signal: ctx.signal,
      dispatcher: agent,
    });
    const body = await readCapped(response.body, MAX_MEDIA_BYTES);
    const contentType = headerValue(response.headers['content-type']) ?? '';
    const status = response.statusCode;
    if ((status === 401 || status === 403) && api.keyName) {
      throw new CredentialError(
        api.keyName,
        'rejected',
        `the ${what} API at ${api.baseUrl} rejected the key ${api.keyName} (HTTP ${status}${apiMessage(body.bytes)}): ` +
          `store a valid one with store_secret`,
      );
    }
    if (status >= 400) {
      throw new ToolError('api_error', `the ${what} API answered HTTP ${status}${apiMessage(body.bytes)}`, {
        status,
      });
    }
    if (body.cut)
      throw new ToolError('api_error', `the ${what} API answer is larger than ${MAX_MEDIA_BYTES} bytes`);
    return { contentType, bytes: body.bytes };
  } catch (error) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    if (error instanceof ToolError) throw error;
    const code =
      (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw new ToolError('api_error', `cannot reach the ${what} API at ${api.baseUrl}: ${code}`);
  } finally {
    await agent.destroy().catch(() => undefined);
  }
}

// OpenAI-style errors carry {"error": {"message": …}}; anything else is quoted briefly.
// Every cut says so in the words the redactor scrubs around (clipNoted), so a key the API quotes is never half shown.
function apiMessage(bytes: Buffer): string {
  // A bounded slice is decoded (an error body may be up to the media cap), the cut said in the redactor's words.
  const head = bytes.subarray(0, 16 * 1024).toString('utf8');
  const text = clipNoted(
    bytes.length > 16 * 1024
      ? `${head} [output truncated: ${bytes.length - 16 * 1024} bytes cut]`
      : head.trim(),
    4000,
  );
  if (!text) return '';
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string };
    const message = typeof parsed.error === 'string' ? parsed.error : parsed.error?.message;
    if (typeof message === 'string') return `: ${clipNoted(message, 500)}`;
  } catch {
    // Not JSON (or cut): quoted below.
  }
  return `: ${clipNoted(text, 300)}`;
}
