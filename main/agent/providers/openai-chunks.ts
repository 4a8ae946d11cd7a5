// Chat Completions stream chunks decoded into neutral StreamEvents. Servers differ in small ways
// (ids missing, names repeated, no [DONE]); this decoder accepts what OpenAI, OpenRouter, DeepSeek,
// Ollama, LM Studio and vLLM send.
import { randomUUID } from 'node:crypto';
import { clipNoted } from '../../core/clip-chars';
import { describeIssue, eventName } from './chunk-issue';
import { serverMessage, statusKind } from './http';
import type { OpenAiChunk, OpenAiStreamError, ToolCallFragment } from './openai-chunk-schema';
import { openAiChunkSchema } from './openai-chunk-schema';
import type { ReasoningPart } from '../../store/transcript';
import type { StreamEvent, TokenUsage } from './provider';
import { ProviderError, tokenCount, unknownUsage } from './provider';
import { checkOpenCalls } from './stream-limits';
import type { SseMessage } from './sse';

// `bytes` counts every argument byte streamed; past the limit `args` is dropped and only the count goes on.
type PendingCall = { id: string; name: string; args: string; bytes: number };

/** Decodes one response's chunks; `finished` turns true at [DONE]; `end()` checks the stream was complete. */
export class OpenAiStreamDecoder {
  private readonly calls = new Map<number, PendingCall>();
  /** The name and argument characters the open calls keep, held to the round's bound with their count (checkOpenCalls). */
  private keptChars = 0;
  /** @param toolCallBytes the most argument bytes one call keeps (default unbounded; providers pass the setting). */
  constructor(private readonly toolCallBytes: number = Number.POSITIVE_INFINITY) {}

  private finishReason: string | undefined;
  private usage: TokenUsage = unknownUsage();
  /**
   * The reasoning streamed so far and the field it came in: one block per response, however often a server switches
   * between reasoning and content (closed at the finish, so a stream cannot make thousands of blocks).
   */
  private reasoning: ReasoningPart | null = null;
  /** True once [DONE] arrived. */
  finished = false;
  /**
   * Raised by each chunk that carried part of the answer (text, reasoning, a call opened or argument bytes, the end):
   * empty deltas and role-only chunks without end are no progress (docs/robustness.md).
   */
  progress = 0;

  /** The neutral events one SSE message yields; throws ProviderError for an error chunk. */
  push(message: SseMessage): StreamEvent[] {
    const out = this.decode(message);
    if (out.length > 0) this.progress++;
    return out;
  }

  private decode(message: SseMessage): StreamEvent[] {
    if (message.data.trim() === '[DONE]') return this.done();
    const chunk = parse(message);
    if (chunk.error) throw chunkError(chunk.error);
    if (chunk.usage) this.usage = usageOf(chunk.usage, this.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return [];
    const out: StreamEvent[] = [];
    const delta = choice.delta;
    const field = delta?.reasoning_content ? 'reasoning_content' : delta?.reasoning ? 'reasoning' : null;
    if (field) {
      const piece = (delta?.[field] ?? '') as string;
      this.reasoning ??= { type: 'reasoning', text: '', field };
      this.reasoning.text += piece;
      out.push({ type: 'reasoning', delta: piece });
    }
    const content = delta?.content;
    if (content) out.push({ type: 'text', delta: content });
    choice.delta?.tool_calls?.forEach((fragment, position) => {
      if (this.fragment(fragment, position)) this.progress++;
    });
    if (choice.finish_reason) {
      // The first finish is part of the answer; repeats of it are not.
      if (this.finishReason === undefined) this.progress++;
      this.finishReason = choice.finish_reason;
      out.push(...this.endReasoning(), ...this.flushCalls());
    }
    return out;
  }

  private endReasoning(): StreamEvent[] {
    const part = this.reasoning;
    this.reasoning = null;
    return part ? [{ type: 'reasoning_end', part }] : [];
  }

  /** At the end of the body: the final events if the response was complete, else a `stream_cut` error. */
  end(): StreamEvent[] {
    if (this.finished) return [];
    // Some servers close after the finish_reason chunk without [DONE]; the answer is complete all the same.
    if (this.finishReason !== undefined) return this.done();
    throw new ProviderError(
      'stream_cut',
      'OpenAI-compatible server: the stream ended before finish_reason or [DONE]',
    );
  }

  /** Adds one fragment to its call; true when it opened the call or brought argument bytes. */
  private fragment(fragment: ToolCallFragment, position: number): boolean {
    const index = fragment.index ?? position;
    let call = this.calls.get(index);
    const opened = !call;
    if (!call) {
      call = { id: '', name: '', args: '', bytes: 0 };
      this.calls.set(index, call);
    }
    if (fragment.id && !call.id) call.id = fragment.id;
    // OpenAI sends the name once; some servers repeat it in every fragment, so the first one wins.
    if (fragment.function?.name && !call.name) {
      call.name = fragment.function.name;
      // A name counts like arguments: one event may hold megabytes of it.
      this.keptChars += call.name.length;
    }
    const piece = fragment.function?.arguments;
    if (piece) {
      call.bytes += Buffer.byteLength(piece);
      const kept = call.args.length;
      // Past the limit nothing more is kept: the call becomes an "arguments too large" error, not a 20 MB string.
      call.args = call.bytes > this.toolCallBytes ? '' : call.args + piece;
      this.keptChars += call.args.length - kept;
    }
    checkOpenCalls(this.calls.size, this.keptChars);
    return opened || Boolean(piece);
  }

  private flushCalls(): StreamEvent[] {
    const calls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    this.calls.clear();
    this.keptChars = 0;
    return calls.map((call): StreamEvent => {
      const id = call.id || `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
      if (call.bytes > this.toolCallBytes) {
        return {
          type: 'tool_call',
          id,
          name: call.name,
          args: '',
          tooLarge: { bytes: call.bytes, limit: this.toolCallBytes },
        };
      }
      return { type: 'tool_call', id, name: call.name, args: call.args.trim() === '' ? '{}' : call.args };
    });
  }

  private done(): StreamEvent[] {
    if (this.finished) return [];
    this.finished = true;
    return [
      ...this.endReasoning(),
      ...this.flushCalls(),
      { type: 'done', stopReason: this.finishReason ?? 'stop', usage: this.usage },
    ];
  }
}

/**
 * The neutral usage of a chunk's usage object. prompt_tokens counts the whole input; the cached part (OpenAI's and
 * OpenRouter's cached_tokens, DeepSeek's prompt_cache_hit_tokens) and OpenRouter's cache writes are taken out of it.
 * A figure the server did not send stays as it was (null: unknown).
 */
function usageOf(raw: NonNullable<OpenAiChunk['usage']>, before: TokenUsage): TokenUsage {
  // A count that is no whole number of tokens (negative, a fraction, 1e308) is unknown, whoever sent it.
  const cacheRead =
    tokenCount(raw.prompt_tokens_details?.cached_tokens) ?? tokenCount(raw.prompt_cache_hit_tokens);
  const cacheWrite = tokenCount(raw.prompt_tokens_details?.cache_write_tokens);
  const prompt = tokenCount(raw.prompt_tokens);
  const output = tokenCount(raw.completion_tokens) ?? before.outputTokens;
  // A chunk with prompt_tokens states the input whole: its cache figures go with it (none: unknown), never an
  // earlier chunk's, which would count the cached part twice.
  if (prompt === null) return { ...before, outputTokens: output };
  return {
    inputTokens: Math.max(0, prompt - (cacheRead ?? 0) - (cacheWrite ?? 0)),
    outputTokens: output,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}

/** The chunk one SSE message holds; throws ProviderError naming what is wrong with it. */
function parse(message: SseMessage): OpenAiChunk {
  let value: unknown;
  try {
    value = JSON.parse(message.data);
  } catch {
    throw new ProviderError(
      'server',
      `OpenAI-compatible server sent a chunk that is not valid JSON: ${clipNoted(message.data, 200)}`,
    );
  }
  const chunk = openAiChunkSchema.safeParse(value);
  if (chunk.success) return chunk.data;
  throw new ProviderError(
    'server',
    `OpenAI-compatible server sent a chunk (event ${eventName(message.event)}) that does not fit the Chat Completions stream: ${describeIssue(chunk.error)}`,
  );
}

// OpenRouter and others report failures mid-stream as an error chunk, with an HTTP-like code.
function chunkError(error: OpenAiStreamError): ProviderError {
  if (typeof error === 'string')
    return new ProviderError('server', `OpenAI-compatible server: ${serverMessage(error)}`);
  const code = typeof error.code === 'number' ? error.code : Number.parseInt(String(error.code ?? ''), 10);
  const kind =
    Number.isFinite(code) && code >= 400
      ? statusKind(code)
      : error.type === 'rate_limit_exceeded'
        ? 'rate_limit'
        : 'server';
  const status = Number.isFinite(code) && code >= 400 ? code : undefined;
  return new ProviderError(
    kind,
    `OpenAI-compatible server: ${serverMessage(error.message ?? error.type ?? 'error in the stream')}`,
    status,
  );
}
