// The provider port: one streaming model call over the neutral transcript.
import type { TokenUsage } from '../../core/model-usage';
import type { ReasoningPart, ToolDeclaration, TranscriptMessage } from '../../store/transcript';

/** One model request. */
export interface ModelRequest {
  model: string;
  system: string;
  messages: TranscriptMessage[];
  /** Empty for the final summary call of a turn. */
  tools: ToolDeclaration[];
  maxTokens?: number;
  signal?: AbortSignal;
  /** A stable key per chat, for servers that route requests sharing a prefix to the same cache (`prompt_cache_key`). */
  cacheKey?: string;
  /** Reasoning to ask for; absent: none asked (docs/agent-loop.md, "Reasoning"). */
  reasoning?: ReasoningRequest;
}

/** How much to reason: OpenAI-compatible servers get `reasoning_effort: level`, Anthropic a thinking budget. */
export interface ReasoningRequest {
  level: 'low' | 'medium' | 'high';
  budgetTokens: number;
}

export type { TokenUsage } from '../../core/model-usage';
export { tokenCount, unknownUsage } from '../../core/model-usage';

/**
 * Streamed events of one response, in order; `tool_call` arrives once its arguments are complete. A call whose
 * arguments passed the stream's tool-call limit arrives with `args` empty and `tooLarge` saying how big they were.
 */
export type StreamEvent =
  | { type: 'text'; delta: string }
  /** Reasoning text as it streams. */
  | { type: 'reasoning'; delta: string }
  /** A reasoning block is complete: what must be sent back with it (Anthropic's signature, a redacted block's data). */
  | { type: 'reasoning_end'; part: ReasoningPart }
  | { type: 'tool_call'; id: string; name: string; args: string; tooLarge?: { bytes: number; limit: number } }
  /** What the server reported so far (Anthropic's message_start): kept if the round is cut before `done`. */
  | { type: 'usage'; usage: TokenUsage }
  /** The server refused an optional feature; the request went again without it (said once per server). */
  | { type: 'feature_dropped'; feature: string; message: string }
  | { type: 'done'; stopReason: string; usage: TokenUsage };

/**
 * Why a provider call failed; `auth` carries the key name so the app can ask for it. `timeout`: no byte came within
 * the first-byte or idle limit; `too_large`: one event passed the event cap (docs/robustness.md).
 */
export type ProviderErrorKind =
  | 'auth'
  | 'rate_limit'
  | 'server'
  | 'network'
  | 'stream_cut'
  | 'bad_request'
  | 'cancelled'
  | 'timeout'
  | 'too_large';

/** Optional facts about a failed call: the key involved, the server's requested wait, the underlying error. */
export interface ProviderErrorDetails {
  /** For `auth`: the secret name of the key that is missing or was rejected; null when none is configured. */
  keyName?: string | null;
  /** For `rate_limit` and `server`: how long the server asked us to wait (from retry-after), in ms. */
  retryAfterMs?: number;
  cause?: unknown;
}

/** A failed provider call; for `stream_cut`, what streamed before the cut was already delivered. */
export class ProviderError extends Error {
  readonly keyName?: string | null;
  readonly retryAfterMs?: number;

  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
    details: ProviderErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ProviderError';
    if (details.keyName !== undefined) this.keyName = details.keyName;
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
  }
}

/** A model API client. */
export interface Provider {
  /** Streams one response; throws ProviderError. Retries 429/5xx itself before any event is yielded. */
  stream(request: ModelRequest): AsyncIterable<StreamEvent>;
}
