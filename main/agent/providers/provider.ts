// The provider port: one streaming model call over the neutral transcript.
import type { ToolDeclaration, TranscriptMessage } from '../transcript';

/** One model request. */
export interface ModelRequest {
  model: string;
  system: string;
  messages: TranscriptMessage[];
  /** Empty for the final summary call of a turn. */
  tools: ToolDeclaration[];
  maxTokens?: number;
  signal?: AbortSignal;
}

/** Streamed events of one response, in order; `tool_call` arrives once its arguments are complete. */
export type StreamEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; id: string; name: string; args: string }
  | { type: 'done'; stopReason: string; usage?: { inputTokens?: number; outputTokens?: number } };

/** Why a provider call failed; `auth` carries the key name so the app can ask for it. */
export type ProviderErrorKind = 'auth' | 'rate_limit' | 'server' | 'network' | 'stream_cut' | 'bad_request' | 'cancelled';

/** A failed provider call; for `stream_cut`, what streamed before the cut was already delivered. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** A model API client. */
export interface Provider {
  /** Streams one response; throws ProviderError. Retries 429/5xx itself before any event is yielded. */
  stream(request: ModelRequest): AsyncIterable<StreamEvent>;
}
