// The embedding model of the configured provider (docs/search.md, "Embeddings (optional)"): OpenAI-compatible
// `POST {baseUrl}/embeddings` ({model, input: [...]} → data[].embedding) and Ollama's `POST /api/embed`
// ({model, input} → embeddings). The server is untrusted input: its answer is read with a size bound and a time
// limit, checked with a zod schema, and refused when a vector is missing, of another length, not finite or zero; an
// error answer is read up to 16 KiB and its detail cut to 300 characters. The key, and a user name and password in
// the base URL (sent as Basic authorization), go only to the address the settings name (redirects are not followed)
// and never appear in an error.
import type * as Undici from 'undici';
import type { Agent, Response } from 'undici';
import { z } from 'zod';
import type { EmbeddingModel, EmbedOptions } from '../../core/embedding-port';
import { EmbeddingError } from '../../core/embedding-port';
import { clipNoted } from '../../core/clip-chars';
import { Redactor } from '../../core/redactor';
import { unitVector } from '../../search/semantic-fusion';
import { describe, errorMessage } from '../providers/http';

/** The two wire formats. */
export type EmbeddingWire = 'openai' | 'ollama';

/** Longest vector taken (the largest common models give 3,072 or 4,096). */
export const MAX_DIMENSIONS = 8192;
/** Texts per request: what OpenAI and Ollama both take comfortably. */
export const EMBEDDING_BATCH_SIZE = 64;
/** Most texts one call may ask for. */
export const MAX_INPUTS = 256;
/** Most characters of a server's error message kept in an EmbeddingError (it reaches the model's notes and the log). */
export const MAX_ERROR_DETAIL = 300;
/** Most bytes of an answer that is not a success read (only its message is wanted). */
export const ERROR_BODY_BYTES = 16 * 1024;
// One number of a vector in JSON is at most ~25 characters ("-0.0123456789012345e-10,"); the rest is envelope.
const BYTES_PER_NUMBER = 26;
const ENVELOPE_BYTES = 64 * 1024;

/** The largest answer `count` vectors can honestly take; past it the answer is refused. */
export function responseLimitBytes(count: number): number {
  return ENVELOPE_BYTES + count * (MAX_DIMENSIONS * BYTES_PER_NUMBER + 1024);
}

// One pool for embedding requests; undici loads with the first (docs/hosts.md, "Fast start").
let client: Promise<{ fetch: typeof Undici.fetch; agent: Agent }> | null = null;
const embeddingClient = () =>
  (client ??= import('undici').then(({ Agent, fetch }) => ({
    fetch,
    agent: new Agent({ keepAliveTimeout: 30_000 }),
  })));

const vector = z.array(z.number()).min(1).max(MAX_DIMENSIONS);
const openAiAnswer = z.object({
  data: z.array(z.object({ embedding: vector, index: z.number().int().min(0).optional() })).max(MAX_INPUTS),
});
const ollamaAnswer = z.object({ embeddings: z.array(vector).max(MAX_INPUTS) });

/** What the client needs from the provider settings. */
export interface EmbeddingClientOptions {
  wire: EmbeddingWire;
  /** The provider's base URL (Ollama's may end in /v1, its OpenAI-compatible path; the native API is beside it). */
  baseUrl: string;
  model: string;
  /** The name of the key's secret, for messages; null: the server takes none. */
  keyName: string | null;
  /** Looks the key up; asked once, and again after the server refused it. */
  getKey: () => Promise<string | undefined>;
  batchSize?: number;
}

/** The URL embeddings are asked at. */
export function embeddingUrl(wire: EmbeddingWire, baseUrl: string): string {
  const base = baseUrl.trim().replace(/\/+$/, '');
  return wire === 'openai' ? `${base}/embeddings` : `${base.replace(/\/v1$/, '')}/api/embed`;
}

/** An embedding model over HTTP. */
export class HttpEmbeddingModel implements EmbeddingModel {
  readonly id: string;
  readonly label: string;
  readonly batchSize: number;
  /** The address asked, without user name and password (fetch refuses a URL with them; messages never show them). */
  private readonly where: string;
  /** `Basic …` from the base URL's user name and password; null without them. */
  private readonly basic: string | null;
  /** What is scrubbed from every message besides the key: the URL's user name and password in each form. */
  private readonly credentials: string[];
  private key: Promise<string | undefined> | null = null;

  constructor(private readonly options: EmbeddingClientOptions) {
    let url: URL;
    try {
      url = new URL(embeddingUrl(options.wire, options.baseUrl));
    } catch {
      throw new EmbeddingError(
        `the provider's base URL "${withoutUserinfo(options.baseUrl).slice(0, 200)}" is not a URL`,
      );
    }
    if (!/^https?:$/.test(url.protocol))
      throw new EmbeddingError(`the provider's base URL must start with http:// or https://`);
    // Never the URL's user name or password: the id is stored in the cache, the label and the address shown.
    this.where = `${url.protocol}//${url.host}${url.pathname}${url.search}`;
    this.credentials = [];
    this.basic = null;
    if (url.username || url.password) {
      if (options.keyName !== null)
        throw new EmbeddingError(
          `the provider's base URL carries a user name and password and the provider names the API key ` +
            `${options.keyName}: both would be sent as the Authorization header (set "apiKeyName": null to use ` +
            'the ones in the URL, or take them out of it)',
        );
      const user = safeDecode(url.username);
      const password = safeDecode(url.password);
      this.basic = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      this.credentials = [
        this.basic.slice('Basic '.length),
        ...new Set([url.username, url.password, user, password]),
      ].filter((text) => text.length >= MIN_SCRUBBED);
    }
    const where = `${url.protocol}//${url.host}${url.pathname}`;
    this.id = `${options.wire} ${where} ${options.model}`;
    this.label = `${options.model} at ${url.host}`;
    this.batchSize = Math.min(MAX_INPUTS, Math.max(1, options.batchSize ?? EMBEDDING_BATCH_SIZE));
  }

  /** One unit vector per text, in order; throws EmbeddingError in words, never carrying the key. */
  async embed(texts: readonly string[], options: EmbedOptions): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    if (texts.length > MAX_INPUTS)
      throw new EmbeddingError(`at most ${MAX_INPUTS} texts per request (got ${texts.length})`);
    const timer = AbortSignal.timeout(options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timer]) : timer;
    let key: string | undefined;
    try {
      key = await this.lookUpKey(signal);
      return await this.request(texts, key, signal, timer, options);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      // No cause: undici's error carries the request, whose headers hold the key.
      if (error instanceof EmbeddingError) throw new EmbeddingError(this.scrub(error.message, key));
      throw new EmbeddingError(this.scrub(`${this.label}: ${describe(error)}`, key));
    }
  }

  private async request(
    texts: readonly string[],
    key: string | undefined,
    signal: AbortSignal,
    timer: AbortSignal,
    options: EmbedOptions,
  ): Promise<Float32Array[]> {
    const { fetch, agent } = await embeddingClient();
    const url = this.where;
    const late = () => new EmbeddingError(`${this.label}: no answer within ${seconds(options.timeoutMs)}`);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(key ? { authorization: `Bearer ${key}` } : this.basic ? { authorization: this.basic } : {}),
        },
        body: JSON.stringify({ model: this.options.model, input: [...texts] }),
        signal,
        dispatcher: agent,
        // A redirect would carry the key to another address.
        redirect: 'manual',
      });
    } catch (error) {
      if (timer.aborted) throw late();
      throw new EmbeddingError(`${this.label}: cannot reach ${url}: ${describe(error)}`);
    }
    // An error answer is wanted only for its message: a small read, whatever the server sends.
    const limit = response.ok ? responseLimitBytes(texts.length) : ERROR_BODY_BYTES;
    const body = await readBounded(response, limit);
    if (timer.aborted) throw late();
    if (response.status >= 300 && response.status < 400)
      throw new EmbeddingError(
        `${this.label}: ${url} answered with a redirect (HTTP ${response.status}); the key is not sent on`,
      );
    if (!response.ok) throw this.statusError(response.status, body.text, key);
    if (body.over)
      throw new EmbeddingError(`${this.label}: the answer is larger than ${texts.length} vectors can be`);
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch {
      throw new EmbeddingError(`${this.label}: ${url} did not answer with JSON (check the base URL)`);
    }
    return this.vectors(json, texts.length);
  }

  /** The answer's vectors in input order, checked. */
  private vectors(json: unknown, count: number): Float32Array[] {
    let raw: number[][];
    if (this.options.wire === 'openai') {
      const parsed = openAiAnswer.safeParse(json);
      if (!parsed.success) throw this.shapeError('{"data": [{"embedding": [numbers]}]}');
      const { data } = parsed.data;
      const indexes = data.map((item) => item.index);
      // Ordered by `index` when every item has a distinct one in range; else in the order given.
      const ordered =
        indexes.every((index) => index !== undefined && index < data.length) &&
        new Set(indexes).size === data.length;
      raw = ordered
        ? data.map((_, at) => (data.find((item) => item.index === at) as (typeof data)[number]).embedding)
        : data.map((item) => item.embedding);
    } else {
      const parsed = ollamaAnswer.safeParse(json);
      if (!parsed.success) throw this.shapeError('{"embeddings": [[numbers]]}');
      raw = parsed.data.embeddings;
    }
    if (raw.length !== count)
      throw new EmbeddingError(`${this.label}: asked for ${count} vectors, got ${raw.length}`);
    const length = raw[0]?.length ?? 0;
    return raw.map((values) => {
      if (values.length !== length)
        throw new EmbeddingError(
          `${this.label}: vectors of different lengths (${length} and ${values.length})`,
        );
      const unit = unitVector(values);
      if (!unit) throw new EmbeddingError(`${this.label}: a vector that is all zeros or not finite`);
      return unit;
    });
  }

  private shapeError(expected: string): EmbeddingError {
    return new EmbeddingError(`${this.label}: the answer is not an embedding list (${expected})`);
  }

  private statusError(status: number, text: string, key: string | undefined): EmbeddingError {
    // Scrubbed before the cut, so a key the server echoes cannot be cut in two and leave its start.
    const detail = capped(this.scrub(errorDetail(text), key)) || 'no details';
    if (status === 401 || status === 403) {
      // Looked up again next time: the person may have stored a new one.
      this.key = null;
      const key =
        this.options.keyName === null
          ? 'it needs an API key and the provider has none ("apiKeyName": null)'
          : `it refused the API key ${this.options.keyName} (or it is not stored yet)`;
      return new EmbeddingError(`${this.label}: HTTP ${status}: ${key}: ${detail}`);
    }
    if (status === 404)
      return new EmbeddingError(
        `${this.label}: HTTP 404 at ${this.where}: ${detail} (is the model available there?)`,
      );
    return new EmbeddingError(`${this.label}: HTTP ${status}: ${detail}`);
  }

  // A keychain that hangs cannot hold the search past its limit. Only a key found is kept: a look-up that failed,
  // or was still pending at the limit, is asked again by the next call.
  private async lookUpKey(signal: AbortSignal): Promise<string | undefined> {
    if (this.options.keyName === null) return undefined;
    const key = (this.key ??= this.options.getKey());
    const forget = () => {
      if (this.key === key) this.key = null;
    };
    return new Promise<string | undefined>((resolve, reject) => {
      const stop = () => {
        forget();
        reject(new EmbeddingError(`${this.label}: the key look-up took too long`));
      };
      if (signal.aborted) return stop();
      signal.addEventListener('abort', stop, { once: true });
      key.then(
        (value) => {
          signal.removeEventListener('abort', stop);
          if (!value) forget();
          resolve(value || undefined);
        },
        () => {
          signal.removeEventListener('abort', stop);
          forget();
          resolve(undefined);
        },
      );
    });
  }

  // The key, and the base URL's user name and password, never leave in a message, even when a server echoes them:
  // in any of the forms the app's redactor knows (case-folded, encoded), and the shortest credentials as they are.
  private scrub(text: string, key: string | undefined): string {
    const redactor = new Redactor();
    if (key) redactor.add(this.options.keyName ?? 'key', key);
    for (const secret of this.credentials) redactor.add(CREDENTIALS, secret);
    let out = redactor.redact(text);
    for (const secret of this.credentials) out = out.split(secret).join(`[redacted:${CREDENTIALS}]`);
    return out;
  }
}

// Shorter pieces of a URL's user name or password would scrub words of the message by chance.
const MIN_SCRUBBED = 3;
const CREDENTIALS = 'base URL credentials';

/** A server's error message cut to MAX_ERROR_DETAIL characters, saying how much was cut. */
function capped(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return clipNoted(flat, MAX_ERROR_DETAIL);
}

/**
 * The message of an error body, also when the read stopped at ERROR_BODY_BYTES inside it: `{"error": "…` cut off
 * still gives its message's start rather than the JSON around it.
 */
function errorDetail(text: string): string {
  const trimmed = text.trim();
  try {
    JSON.parse(trimmed);
    return errorMessage(trimmed);
  } catch {
    const start = /^\{\s*"error"\s*:\s*(?:\{\s*"message"\s*:\s*)?"((?:[^"\\]|\\.)*)/.exec(trimmed);
    if (!start?.[1]) return errorMessage(trimmed);
    try {
      return JSON.parse(`"${start[1].replace(/\\[^"\\/bfnrtu]?$/, '')}"`) as string;
    } catch {
      return start[1];
    }
  }
}

/** A URL as text without its user name and password (for one that does not parse). */
function withoutUserinfo(text: string): string {
  return text.trim().replace(/^([a-z][a-z0-9+.-]*:\/*)[^/?#]*@/i, '$1');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A response's text, its first `max` bytes; `over` when there was more. Stops reading at the bound. */
async function readBounded(response: Response, max: number): Promise<{ text: string; over: boolean }> {
  if (!response.body) return { text: '', over: false };
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  try {
    for await (const chunk of response.body) {
      const bytes = chunk as Uint8Array;
      // Leaving the loop cancels the rest of the body; the part up to the bound is kept.
      if (size + bytes.length > max)
        return { text: text + decoder.decode(bytes.subarray(0, max - size)), over: true };
      size += bytes.length;
      text += decoder.decode(bytes, { stream: true });
    }
  } catch {
    // What arrived is judged as it is; a timeout shows through the caller's check.
  }
  return { text: text + decoder.decode(), over: false };
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
