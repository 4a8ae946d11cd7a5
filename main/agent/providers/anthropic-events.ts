// Anthropic's streaming events decoded into neutral StreamEvents.
import type { AnthropicEvent, AnthropicUsage, BlockDelta, BlockStart } from './anthropic-event-schema';
import {
  ANTHROPIC_EVENT_TYPES,
  anthropicEventSchema,
  anthropicEventTypeSchema,
} from './anthropic-event-schema';
import { describeIssue, eventName } from './chunk-issue';
import { serverMessage } from './http';
import type { ReasoningPart } from '../../store/transcript';
import type { ProviderErrorKind, StreamEvent, TokenUsage } from './provider';
import { ProviderError, tokenCount, unknownUsage } from './provider';
import { checkOpenCalls } from './stream-limits';
import { clipNoted } from '../../core/clip-chars';
import type { SseMessage } from './sse';

// `bytes` counts every argument byte streamed; past the limit `json` is dropped and only the count goes on.
type ToolBlock = { kind: 'tool'; id: string; name: string; json: string; bytes: number; input: unknown };
type ThinkingBlock = { kind: 'thinking'; part: ReasoningPart };
type OpenBlock = ToolBlock | ThinkingBlock | { kind: 'other' };

/** Decodes one response's SSE messages; `finished` turns true at message_stop. */
export class AnthropicStreamDecoder {
  private readonly blocks = new Map<number, OpenBlock>();
  /** The name and input characters the open tool blocks keep, held to the round's bound with their count (checkOpenCalls). */
  private keptChars = 0;
  private stopReason: string | undefined;
  private readonly tokens: TokenUsage = unknownUsage();
  /** True once message_stop arrived: the response is complete. */
  finished = false;
  /**
   * Raised by each event that carried part of the answer (text, thinking, a block ended, a tool call opened or its
   * input bytes, the end): pings and empty deltas without end are no progress (docs/robustness.md).
   */
  progress = 0;

  /** @param toolCallBytes the most argument bytes one call keeps (default unbounded; providers pass the setting). */
  constructor(private readonly toolCallBytes: number = Number.POSITIVE_INFINITY) {}

  /**
   * The neutral events one SSE message yields; throws ProviderError for an `error` event. The first output comes after
   * a `usage` event with what message_start reported (the input is billed even if the answer is cut); nothing before
   * it, so a failure before any output is still retried.
   */
  push(message: SseMessage): StreamEvent[] {
    const events = this.decode(message);
    if (events.length > 0) this.progress++;
    if (this.usageSaid || !events.some((e) => e.type !== 'done')) return events;
    this.usageSaid = true;
    return [{ type: 'usage', usage: { ...this.tokens } }, ...events];
  }

  private usageSaid = false;

  private decode(message: SseMessage): StreamEvent[] {
    const event = parse(message);
    // ping, and event types newer than this client.
    if (event === null) return [];
    switch (event.type) {
      case 'message_start':
        this.usage(event.message?.usage);
        return [];
      case 'content_block_start': {
        const events = this.start(event.index, event.content_block);
        checkOpenCalls(this.blocks.size, this.keptChars);
        return events;
      }
      case 'content_block_delta':
        return this.delta(event.index, event.delta);
      case 'content_block_stop':
        return this.stop(event.index);
      case 'message_delta':
        if (event.delta?.stop_reason) {
          // The first stop reason is part of the answer; repeats of it are not.
          if (this.stopReason === undefined) this.progress++;
          this.stopReason = event.delta.stop_reason;
        }
        this.usage(event.usage);
        return [];
      case 'message_stop':
        return this.finish();
      case 'error':
        throw inStreamError(event.error);
    }
  }

  private start(index: number, block: BlockStart): StreamEvent[] {
    // A block started again under an open index replaces it: no new call, so no progress either.
    const reopened = this.blocks.has(index);
    this.forget(index);
    if (block.type === 'tool_use') {
      if (!reopened) this.progress++;
      // A name counts like input: one event may hold megabytes of it.
      this.keptChars += (block.name ?? '').length;
      this.blocks.set(index, {
        kind: 'tool',
        id: block.id ?? '',
        name: block.name ?? '',
        json: '',
        bytes: 0,
        input: block.input,
      });
      return [];
    }
    if (block.type === 'thinking' || block.type === 'redacted_thinking') {
      const part: ReasoningPart = { type: 'reasoning', text: block.thinking ?? '' };
      if (block.signature) part.signature = block.signature;
      if (block.type === 'redacted_thinking') part.redactedData = block.data ?? '';
      this.blocks.set(index, { kind: 'thinking', part });
      return part.text ? [{ type: 'reasoning', delta: part.text }] : [];
    }
    this.blocks.set(index, { kind: 'other' });
    return block.type === 'text' && block.text ? [{ type: 'text', delta: block.text }] : [];
  }

  private delta(index: number, delta: BlockDelta): StreamEvent[] {
    if (delta.type === 'text_delta' && delta.text) return [{ type: 'text', delta: delta.text }];
    const block = this.blocks.get(index);
    if (block?.kind === 'thinking') {
      // The signature closes the block and goes back with it unchanged.
      if (delta.type === 'signature_delta' && delta.signature) block.part.signature = delta.signature;
      if (delta.type === 'thinking_delta' && delta.thinking) {
        block.part.text += delta.thinking;
        return [{ type: 'reasoning', delta: delta.thinking }];
      }
      return [];
    }
    if (
      delta.type === 'input_json_delta' &&
      block?.kind === 'tool' &&
      typeof delta.partial_json === 'string'
    ) {
      block.bytes += Buffer.byteLength(delta.partial_json);
      if (delta.partial_json !== '') this.progress++;
      const kept = block.json.length;
      // Past the limit nothing more is kept: the call becomes an "arguments too large" error, not a 20 MB string.
      block.json = block.bytes > this.toolCallBytes ? '' : block.json + delta.partial_json;
      this.keptChars += block.json.length - kept;
      checkOpenCalls(this.blocks.size, this.keptChars);
    }
    // citation deltas carry nothing the neutral transcript keeps.
    return [];
  }

  private stop(index: number): StreamEvent[] {
    const block = this.blocks.get(index);
    this.forget(index);
    if (block?.kind === 'thinking') return [{ type: 'reasoning_end', part: block.part }];
    return block?.kind === 'tool' ? [toolCall(block, this.toolCallBytes)] : [];
  }

  private finish(): StreamEvent[] {
    this.finished = true;
    // A block never closed before message_stop is still a call the model made; hand it over as it stands.
    const open = [...this.blocks.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([, b]): StreamEvent[] =>
        b.kind === 'tool'
          ? [toolCall(b, this.toolCallBytes)]
          : b.kind === 'thinking'
            ? [{ type: 'reasoning_end', part: b.part }]
            : [],
      );
    this.blocks.clear();
    this.keptChars = 0;
    return [...open, { type: 'done', stopReason: this.stopReason ?? 'end_turn', usage: { ...this.tokens } }];
  }

  /** Drops the open block at `index`, and its kept input from the count. */
  private forget(index: number): void {
    const block = this.blocks.get(index);
    if (block?.kind === 'tool') this.keptChars -= block.name.length + block.json.length;
    this.blocks.delete(index);
  }

  /** The usage of message_start, then message_delta's running totals; input_tokens is already the uncached input. */
  private usage(usage: AnthropicUsage): void {
    // Counts may be missing or null (the schema lets both through); either leaves the count as it was.
    // A count that is no whole number of tokens (negative, a fraction, 1e308) is unknown, whoever sent it.
    this.tokens.inputTokens = tokenCount(usage?.input_tokens) ?? this.tokens.inputTokens;
    this.tokens.outputTokens = tokenCount(usage?.output_tokens) ?? this.tokens.outputTokens;
    this.tokens.cacheReadTokens = tokenCount(usage?.cache_read_input_tokens) ?? this.tokens.cacheReadTokens;
    this.tokens.cacheWriteTokens =
      tokenCount(usage?.cache_creation_input_tokens) ?? this.tokens.cacheWriteTokens;
  }
}

function toolCall(block: ToolBlock, limit: number): StreamEvent {
  const tooLarge = (bytes: number): StreamEvent => ({
    type: 'tool_call',
    id: block.id,
    name: block.name,
    args: '',
    tooLarge: { bytes, limit },
  });
  if (block.bytes > limit) return tooLarge(block.bytes);
  let args = block.json;
  if (args.trim() === '') {
    // No input_json_delta: a tool without parameters, or a proxy that put the input in the start event.
    const input = block.input;
    args = input && typeof input === 'object' && Object.keys(input).length > 0 ? inputJson(input) : '{}';
    const bytes = Buffer.byteLength(args);
    if (bytes > limit) return tooLarge(bytes);
  }
  return { type: 'tool_call', id: block.id, name: block.name, args };
}

// An input nested past the stack cannot be written back as JSON; that is the server's fault, said as such.
function inputJson(input: object): string {
  try {
    return JSON.stringify(input);
  } catch (error) {
    throw new ProviderError(
      'bad_request',
      `Anthropic sent a tool input that cannot be read: ${(error as Error).message}`,
    );
  }
}

/** The event one SSE message holds (null for a type this client skips); throws ProviderError naming what is wrong. */
function parse(message: SseMessage): AnthropicEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(message.data);
  } catch {
    throw new ProviderError(
      'server',
      `Anthropic sent an event that is not valid JSON: ${clipNoted(message.data, 200)}`,
    );
  }
  const head = anthropicEventTypeSchema.safeParse(value);
  if (!head.success) {
    throw new ProviderError(
      'server',
      `Anthropic sent an event (${eventName(message.event)}) without a "type": ${describeIssue(head.error)}`,
    );
  }
  if (!ANTHROPIC_EVENT_TYPES.has(head.data.type)) return null;
  const event = anthropicEventSchema.safeParse(value);
  if (event.success) return event.data;
  throw new ProviderError(
    'server',
    `Anthropic sent a ${head.data.type} event that does not fit the Messages stream: ${describeIssue(event.error)}`,
  );
}

const ERROR_KINDS: Record<string, ProviderErrorKind> = {
  overloaded_error: 'server',
  api_error: 'server',
  rate_limit_error: 'rate_limit',
  authentication_error: 'auth',
  permission_error: 'auth',
  invalid_request_error: 'bad_request',
  request_too_large: 'bad_request',
  not_found_error: 'bad_request',
};

function inStreamError(error: Extract<AnthropicEvent, { type: 'error' }>['error']): ProviderError {
  const type = error?.type ?? 'api_error';
  const kind = ERROR_KINDS[type] ?? 'server';
  const message = serverMessage(error?.message ?? 'error event in the stream');
  return new ProviderError(kind, `Anthropic: ${serverMessage(type)}: ${message}`);
}
