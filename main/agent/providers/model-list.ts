// "Test connection": the model ids a provider lists (GET {baseUrl}/models; Anthropic GET {baseUrl}/v1/models), or what
// went wrong in words a person can act on (docs/hosts.md, "First run"). The address is the person's own choice on the
// Welcome page or in `agenvoy setup`, so loopback and the LAN are allowed (Ollama, LM Studio): this is not a web tool.
import type * as Undici from 'undici';
import type { Agent, Response } from 'undici';
import { z } from 'zod';
import type { ProviderWire } from '../../settings/settings';
import { escapeHidden } from '../../../preload/contract/hidden-characters';
import { Redactor } from '../../core/redactor';
import { ANTHROPIC_VERSION } from './anthropic';
import { boundedText, describe, errorMessage } from './http';

/** The whole request's limit: a model list answers in well under a second. */
export const MODEL_LIST_TIMEOUT_MS = 10_000;
/** A model list larger than this is no model list (OpenRouter's, the largest known, is ~0.5 MiB with details). */
export const MODEL_LIST_MAX_BYTES = 8 * 1024 * 1024;
/** At most this many ids are kept. */
export const MODEL_LIST_MAX_MODELS = 5000;

// undici loads with the first listing, not when the app starts (docs/hosts.md, "Fast start").
let client: Promise<{ fetch: typeof Undici.fetch; agent: Agent }> | null = null;
const listClient = () =>
  (client ??= import('undici').then(({ Agent, fetch }) => ({
    fetch,
    agent: new Agent({ connectTimeout: MODEL_LIST_TIMEOUT_MS }),
  })));

/** What to ask. */
export interface ModelListRequest {
  wire: ProviderWire;
  baseUrl: string;
  /** The key's value; null when the server takes none. */
  apiKey: string | null;
  /** The key's name, for messages. */
  keyName: string | null;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The answer: the ids exactly as the server lists them, or a message in words. */
export type ModelListResult =
  | { ok: true; url: string; models: string[] }
  /** `answered`: the server was reached and answered (with an error status or no model list). */
  | { ok: false; url: string; error: string; answered: boolean };

/** A model id longer than this is skipped (real ids are tens of characters). */
const MAX_MODEL_ID = 500;

// Both APIs (and Ollama, LM Studio, vLLM, OpenRouter, DeepSeek) answer {data: [{id, ...}]}; other fields, and entries
// without a usable id, are ignored; the list is cut to MODEL_LIST_MAX_MODELS after reading (the byte bound holds first).
const modelListSchema = z.object({ data: z.array(z.unknown()) });
const modelEntrySchema = z.object({ id: z.string().min(1).max(MAX_MODEL_ID) });

/** The URL the list is read from. */
export function modelListUrl(wire: ProviderWire, baseUrl: string): string {
  const base = baseUrl.trim().replace(/\/+$/, '');
  return wire === 'anthropic' ? `${base}/v1/models?limit=1000` : `${base}/models`;
}

/** Asks the server for its models; never throws. */
export async function listModels(request: ModelListRequest): Promise<ModelListResult> {
  let url: string;
  try {
    url = new URL(modelListUrl(request.wire, request.baseUrl)).toString();
  } catch {
    return {
      ok: false,
      url: request.baseUrl,
      error: `"${request.baseUrl}" is not a URL (e.g. http://127.0.0.1:11434/v1)`,
      answered: false,
    };
  }
  if (!/^https?:$/.test(new URL(url).protocol)) {
    return {
      ok: false,
      url,
      error: `the Base URL must start with http:// or https:// (got ${request.baseUrl})`,
      answered: false,
    };
  }
  const { fetch, agent } = await listClient();
  const timeoutMs = request.timeoutMs ?? MODEL_LIST_TIMEOUT_MS;
  const timer = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timer]) : timer;
  let answered = false;
  // The key never appears in what this returns, even when a server echoes it back in an error or an id: not
  // case-folded or encoded, nor its start where a long message was cut inside it (the app's own redactor).
  const redactor = new Redactor();
  if (request.apiKey) redactor.add(request.keyName ?? 'API key', request.apiKey);
  const scrub = (text: string) => redactor.redact(text);
  const failed = (error: string): ModelListResult => ({ ok: false, url, error: scrub(error), answered });
  let response: Response;
  try {
    // Never followed: a redirect would carry x-api-key to another origin (undici drops only Authorization).
    response = await fetch(url, { headers: headers(request), signal, dispatcher: agent, redirect: 'manual' });
  } catch (error) {
    if (request.signal?.aborted) return failed('cancelled');
    if (timer.aborted) return failed(`no answer from ${url} within ${timeoutMs / 1000} s`);
    return failed(unreachable(url, error));
  }
  answered = true;
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    return failed(
      `${url} answered with a redirect (HTTP ${response.status})${location ? ` to ${location}` : ''}: ` +
        'the key is not sent on; use the address it names as the Base URL if you trust it',
    );
  }
  const text = await boundedText(response, MODEL_LIST_MAX_BYTES + 1).catch(() => '');
  if (timer.aborted) return failed(`no complete answer from ${url} within ${timeoutMs / 1000} s`);
  if (!response.ok) return failed(statusProblem(request, url, response.status, text));
  if (text.length > MODEL_LIST_MAX_BYTES)
    return failed(`the answer from ${url} is larger than a model list can be`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return failed(
      `${url} did not answer with JSON, so it is not a model list: check the Base URL${hint(request)}`,
    );
  }
  const parsed = modelListSchema.safeParse(json);
  if (!parsed.success)
    return failed(`${url} answered, but not with a model list ({"data": [{"id": …}]})${hint(request)}`);
  const ids = parsed.data.data.flatMap((entry) => {
    const model = modelEntrySchema.safeParse(entry);
    // An id with controls, bidi or zero-width characters is no model's: printed by `agenvoy setup` it acts on the
    // terminal, and on the Welcome page it can show as another id (docs/security.md, "What the person sees").
    return model.success &&
      scrub(model.data.id) === model.data.id &&
      escapeHidden(model.data.id) === model.data.id
      ? [model.data.id]
      : [];
  });
  const models = [...new Set(ids)].slice(0, MODEL_LIST_MAX_MODELS);
  if (models.length === 0) return failed(`${url} lists no models: load or download one on the server first`);
  return { ok: true, url, models };
}

function headers(request: ModelListRequest): Record<string, string> {
  const out: Record<string, string> = { accept: 'application/json' };
  if (request.wire === 'anthropic') {
    out['anthropic-version'] = ANTHROPIC_VERSION;
    if (request.apiKey) out['x-api-key'] = request.apiKey;
  } else if (request.apiKey) {
    out.authorization = `Bearer ${request.apiKey}`;
  }
  return out;
}

function unreachable(url: string, error: unknown): string {
  const detail = describe(error);
  const host = new URL(url).host;
  if (/ECONNREFUSED/.test(detail))
    return `nothing answers at ${host} (connection refused): is the server running?`;
  if (/ENOTFOUND|EAI_AGAIN/.test(detail)) return `the host name in ${url} could not be found (${detail})`;
  if (/bad port/.test(detail))
    return `port ${new URL(url).port} of ${url} is one fetch refuses (a reserved port)`;
  if (/certificate|CERT|SSL|TLS/i.test(detail)) return `a secure connection to ${host} failed: ${detail}`;
  return `cannot reach ${url}: ${detail}`;
}

function statusProblem(request: ModelListRequest, url: string, status: number, text: string): string {
  const detail = errorMessage(text) || 'no details';
  if (status === 401 || status === 403) {
    const key =
      request.keyName === null
        ? 'it needs an API key and none is set ("No key")'
        : request.apiKey
          ? `it refused the API key ${request.keyName}`
          : `it needs an API key and ${request.keyName} is not stored yet`;
    return `${url} answered HTTP ${status}: ${key} (${detail})`;
  }
  if (status === 404)
    return `${url} answered HTTP 404: there is no model list there: check the Base URL${hint(request)}`;
  return `${url} answered HTTP ${status}: ${detail}`;
}

function hint(request: ModelListRequest): string {
  return request.wire === 'openai' && !/\/v1\/?$/.test(request.baseUrl.trim())
    ? ' (OpenAI-compatible servers usually end in /v1)'
    : '';
}
