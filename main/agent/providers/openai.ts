// The OpenAI-compatible Chat Completions provider: POST {baseUrl}/chat/completions with stream: true.
// One client for OpenAI, OpenRouter, DeepSeek, Ollama, LM Studio and vLLM; only the base URL differs.
import { openEventStream } from './http';
import { hasImages, withoutImages } from '../image-budget';
import { IMAGES, OptionalFeature, streamWithFeatures } from './optional-feature';
import { OpenAiStreamDecoder } from './openai-chunks';
import type { MaxTokensField } from './openai-render';
import { renderOpenAiRequest } from './openai-render';
import type { ModelRequest, Provider, StreamEvent } from './provider';
import { ProviderError } from './provider';
import type { RetryNotice, RetryPolicy } from './retry';
import { DEFAULT_RETRY_POLICY, withRetry } from './retry';
import type { StreamLimits } from './stream-limits';
import { resolveStreamLimits } from './stream-limits';

/** OpenAI's own endpoint. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** How to reach the server and with which key. */
export interface OpenAiProviderOptions {
  baseUrl?: string;
  /** Sent as `Authorization: Bearer`; null or undefined sends no header (local servers). */
  apiKey?: string | null;
  /** The key's secret name; when set and the key is missing, calls fail with an `auth` error naming it. */
  keyName?: string | null;
  retry?: Partial<RetryPolicy>;
  onRetry?: (notice: RetryNotice) => void;
  /** Bounds on each response: event size, first-byte and idle waits, tool-call arguments (settings.json `limits`). */
  limits?: Partial<StreamLimits>;
}

/** The chat's prompt-cache key, which some compatible servers refuse. */
const CACHE_KEY = new OptionalFeature('prompt caching (prompt_cache_key)', ['prompt_cache_key']);
/** reasoning_effort, which models that do not reason refuse. */
const REASONING_EFFORT = new OptionalFeature('reasoning effort (reasoning_effort)', ['reasoning_effort']);

/** Streams responses from any OpenAI-compatible Chat Completions server. */
export class OpenAiProvider implements Provider {
  private readonly url: string;
  private readonly maxTokensField: MaxTokensField;

  constructor(private readonly options: OpenAiProviderOptions = {}) {
    const base = (options.baseUrl ?? OPENAI_BASE_URL).replace(/\/+$/, '');
    this.url = `${base}/chat/completions`;
    // OpenAI's reasoning models refuse max_tokens; compatible servers mostly know only max_tokens.
    this.maxTokensField =
      new URL(base).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens';
  }

  /** Streams one response, retrying 429/5xx before its first event. */
  stream(request: ModelRequest): AsyncIterable<StreamEvent> {
    const model = `${this.url} ${request.model}`;
    return streamWithFeatures(
      'The OpenAI-compatible server',
      [
        { feature: CACHE_KEY, wanted: request.cacheKey !== undefined, scope: this.url },
        { feature: REASONING_EFFORT, wanted: request.reasoning !== undefined, scope: model },
        { feature: IMAGES, wanted: hasImages(request.messages), scope: model },
      ],
      (using) =>
        this.retrying({
          ...request,
          cacheKey: using(CACHE_KEY) ? request.cacheKey : undefined,
          reasoning: using(REASONING_EFFORT) ? request.reasoning : undefined,
          messages: using(IMAGES) ? request.messages : withoutImages(request.messages),
        }),
    );
  }

  private retrying(request: ModelRequest): AsyncIterable<StreamEvent> {
    return withRetry(() => this.attempt(request), {
      policy: { ...DEFAULT_RETRY_POLICY, ...this.options.retry },
      signal: request.signal,
      onRetry: this.options.onRetry,
    });
  }

  private async *attempt(request: ModelRequest): AsyncGenerator<StreamEvent> {
    const { apiKey, keyName = null } = this.options;
    if (!apiKey && keyName) {
      throw new ProviderError(
        'auth',
        `OpenAI-compatible server: the API key ${keyName} is not set`,
        undefined,
        {
          keyName,
        },
      );
    }
    // Our own controller also ends the body when the caller stops reading early.
    const local = new AbortController();
    const signal = request.signal ? AbortSignal.any([request.signal, local.signal]) : local.signal;
    try {
      const decoder = new OpenAiStreamDecoder(resolveStreamLimits(this.options.limits).toolCallBytes);
      const events = await openEventStream({
        label: 'OpenAI-compatible server',
        url: this.url,
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        body: renderOpenAiRequest(request, this.maxTokensField),
        signal,
        keyName,
        limits: this.options.limits,
        progress: () => decoder.progress,
      });
      for await (const message of events) {
        for (const event of decoder.push(message)) yield event;
        if (decoder.finished) return;
      }
      for (const event of decoder.end()) yield event;
    } finally {
      local.abort();
    }
  }
}
