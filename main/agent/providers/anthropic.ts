// The Anthropic Messages API provider: POST {baseUrl}/v1/messages with stream: true.
import { AnthropicStreamDecoder } from './anthropic-events';
import { addCacheBreakpoints, renderAnthropicRequest } from './anthropic-render';
import { openEventStream } from './http';
import { hasImages, withoutImages } from '../image-budget';
import { IMAGES, OptionalFeature, streamWithFeatures } from './optional-feature';
import type { ModelRequest, Provider, StreamEvent } from './provider';
import { ProviderError } from './provider';
import type { RetryNotice, RetryPolicy } from './retry';
import { DEFAULT_RETRY_POLICY, withRetry } from './retry';
import type { StreamLimits } from './stream-limits';
import { resolveStreamLimits } from './stream-limits';

/** The public endpoint. */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** The API version this client speaks. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** max_tokens when a request does not say: every current model allows at least this much output. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

/** How to reach the API and with which key. */
export interface AnthropicProviderOptions {
  baseUrl?: string;
  /** The key; null or undefined sends none (a proxy that adds it). */
  apiKey?: string | null;
  /** The key's secret name; when set and the key is missing, calls fail with an `auth` error naming it. */
  keyName?: string | null;
  maxTokens?: number;
  retry?: Partial<RetryPolicy>;
  onRetry?: (notice: RetryNotice) => void;
  /** Bounds on each response: event size, first-byte and idle waits, tool-call arguments (settings.json `limits`). */
  limits?: Partial<StreamLimits>;
}

/** Prompt-cache breakpoints, which a proxy or an older server may refuse. */
const CACHE_CONTROL = new OptionalFeature('prompt caching (cache_control)', ['cache_control']);
/** Extended thinking, which older models and some proxies refuse. */
const THINKING = new OptionalFeature('extended thinking', ['thinking']);

/** Streams Claude responses over the Messages API. */
export class AnthropicProvider implements Provider {
  private readonly url: string;

  constructor(private readonly options: AnthropicProviderOptions = {}) {
    this.url = `${(options.baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/+$/, '')}/v1/messages`;
  }

  /** Streams one response, retrying 429/5xx before its first event. */
  stream(request: ModelRequest): AsyncIterable<StreamEvent> {
    const model = `${this.url} ${request.model}`;
    return streamWithFeatures(
      'Anthropic',
      [
        { feature: CACHE_CONTROL, wanted: true, scope: this.url },
        { feature: THINKING, wanted: request.reasoning !== undefined, scope: model },
        { feature: IMAGES, wanted: hasImages(request.messages), scope: model },
      ],
      (using) =>
        this.retrying(
          {
            ...request,
            reasoning: using(THINKING) ? request.reasoning : undefined,
            messages: using(IMAGES) ? request.messages : withoutImages(request.messages),
          },
          using(CACHE_CONTROL),
        ),
    );
  }

  private retrying(request: ModelRequest, caching: boolean): AsyncIterable<StreamEvent> {
    return withRetry(() => this.attempt(request, caching), {
      policy: { ...DEFAULT_RETRY_POLICY, ...this.options.retry },
      signal: request.signal,
      onRetry: this.options.onRetry,
    });
  }

  private async *attempt(request: ModelRequest, caching: boolean): AsyncGenerator<StreamEvent> {
    const { apiKey, keyName = null } = this.options;
    if (!apiKey && keyName) {
      throw new ProviderError('auth', `Anthropic: the API key ${keyName} is not set`, undefined, { keyName });
    }
    // Our own controller also ends the body when the caller stops reading early.
    const local = new AbortController();
    const signal = request.signal ? AbortSignal.any([request.signal, local.signal]) : local.signal;
    try {
      const headers: Record<string, string> = { 'anthropic-version': ANTHROPIC_VERSION };
      if (apiKey) headers['x-api-key'] = apiKey;
      const body = renderAnthropicRequest(request, this.options.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS);
      if (caching) addCacheBreakpoints(body);
      const decoder = new AnthropicStreamDecoder(resolveStreamLimits(this.options.limits).toolCallBytes);
      const events = await openEventStream({
        label: 'Anthropic',
        url: this.url,
        headers,
        body,
        signal,
        keyName,
        limits: this.options.limits,
        progress: () => decoder.progress,
      });
      for await (const message of events) {
        for (const event of decoder.push(message)) yield event;
        if (decoder.finished) return;
      }
      throw new ProviderError('stream_cut', 'Anthropic: the stream ended before message_stop');
    } finally {
      local.abort();
    }
  }
}
