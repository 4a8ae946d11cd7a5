// The embedding model of the configured provider (docs/search.md, "Embeddings (optional)"): OpenAI-compatible
// `POST {baseUrl}/embeddings` ({model, input: [...]} → data[].embedding) and Ollama's `POST /api/embed`
// ({model, input} → embeddings). The server is untrusted input: its answer is read with a size bound and a time
// limit, checked with a zod schema, and refused when a vector is missing, of another length, not finite or zero. The
// key is sent only to the address the settings name (redirects are not followed) and never appears in an error.
import type * as Undici from 'undici';
import type { Agent, Response } from 'undici';
import { z } from 'zod';
import type { EmbeddingModel, EmbedOptions } from '../../core/embedding-port';
import { EmbeddingError } from '../../core/embedding-port';
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
  private readonly url: URL;
  private key: Promise<string | undefined> | null = null;

  constructor(private readonly options: EmbeddingClientOptions) {
    let url: URL;
    try {
      url = new URL(embeddingUrl(options.wire, options.baseUrl));
    } catch {
      throw new EmbeddingError(`the provider's base URL "${options.baseUrl}" is not a URL`);
    }
    if (!/^https?:$/.test(url.protocol))
      throw new EmbeddingError(`the provider's base URL must start with http:// or https://`);
    this.url = url;
    // Never the URL's user name or password: the id is stored in the cache and the label shown.
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
    const url = this.url.toString();
    const late = () => new EmbeddingError(`${this.label}: no answer within ${seconds(options.timeoutMs)}`);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        body: JSON.stringify({ model: this.options.model, input: [...texts] }),
        signal,
        dispatcher: agent,
        // A redirect would carry the key to another address.
        redirect: 'manual',
      });
    } catch (error) {
      if (timer.aborted) throw late();
      throw new EmbeddingError(`${this.label}: cannot reach ${url}: ${describe(error)}`, { cause: error });
    }
    const limit = responseLimitBytes(texts.length);
    const body = await readBounded(response, limit);
    if (timer.aborted) throw late();
    if (response.status >= 300 && response.status < 400)
      throw new EmbeddingError(
        `${this.label}: ${url} answered with a redirect (HTTP ${response.status}); the key is not sent on`,
      );
    if (!response.ok) throw this.statusError(response.status, body.text);
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

  private statusError(status: number, text: string): EmbeddingError {
    const detail = errorMessage(text) || 'no details';
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
        `${this.label}: HTTP 404 at ${this.url.toString()}: ${detail} (is the model available there?)`,
      );
    return new EmbeddingError(`${this.label}: HTTP ${status}: ${detail}`);
  }

  // A keychain that hangs cannot hold the search past its limit.
  private async lookUpKey(signal: AbortSignal): Promise<string | undefined> {
    if (this.options.keyName === null) return undefined;
    this.key ??= this.options.getKey().catch(() => undefined);
    const key = this.key;
    return new Promise<string | undefined>((resolve, reject) => {
      const stop = () => reject(new EmbeddingError(`${this.label}: the key look-up took too long`));
      if (signal.aborted) return stop();
      signal.addEventListener('abort', stop, { once: true });
      key.then(
        (value) => {
          signal.removeEventListener('abort', stop);
          resolve(value || undefined);
        },
        () => resolve(undefined),
      );
    });
  }

  // The key never leaves in a message, even when a server echoes it back.
  private scrub(text: string, key: string | undefined): string {
    return key ? text.split(key).join(`[redacted:${this.options.keyName ?? 'key'}]`) : text;
  }
}

/** A response's text, at most `max` bytes of it; `over` when there was more. Stops reading at the bound. */
async function readBounded(response: Response, max: number): Promise<{ text: string; over: boolean }> {
  if (!response.body) return { text: '', over: false };
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  try {
    for await (const chunk of response.body) {
      const bytes = chunk as Uint8Array;
      size += bytes.length;
      // Leaving the loop cancels the rest of the body.
      if (size > max) return { text, over: true };
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
