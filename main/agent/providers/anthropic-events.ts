// Anthropic's streaming events decoded into neutral StreamEvents.
import type { AnthropicEvent, AnthropicUsage, BlockDelta, BlockStart } from './anthropic-event-schema';
import {
  ANTHROPIC_EVENT_TYPES,
  anthropicEventSchema,
  anthropicEventTypeSchema,
} from './anthropic-event-schema';
import { describeIssue, eventName } from './chunk-issue';
import type { ProviderErrorKind, StreamEvent } from './provider';
import { ProviderError } from './provider';
import type { SseMessage } from './sse';

// `bytes` counts every argument byte streamed; past the limit `json` is dropped and only the count goes on.
type ToolBlock = { kind: 'tool'; id: string; name: string; json: string; bytes: number; input: unknown };
type OpenBlock = ToolBlock | { kind: 'other' };

/** Decodes one response's SSE messages; `finished` turns true at message_stop. */
export class AnthropicStreamDecoder {
  private readonly blocks = new Map<number, OpenBlock>();
  private stopReason: string | undefined;
  private inputTokens: number | undefined;
  private outputTokens: number | undefined;
  /** True once message_stop arrived: the response is complete. */
  finished = false;

  /** @param toolCallBytes the most argument bytes one call keeps (default unbounded; providers pass the setting). */
  constructor(private readonly toolCallBytes: number = Number.POSITIVE_INFINITY) {}

  /** The neutral events one SSE message yields; throws ProviderError for an `error` event. */
  push(message: SseMessage): StreamEvent[] {
    const event = parse(message);
    // ping, and event types newer than this client.
    if (event === null) return [];
    switch (event.type) {
      case 'message_start':
        this.usage(event.message?.usage);
        return [];
      case 'content_block_start':
        return this.start(event.index, event.content_block);
      case 'content_block_delta':
        return this.delta(event.index, event.delta);
      case 'content_block_stop':
        return this.stop(event.index);
      case 'message_delta':
        if (event.delta?.stop_reason) this.stopReason = event.delta.stop_reason;
        this.usage(event.usage);
        return [];
      case 'message_stop':
        return this.finish();
      case 'error':
        throw inStreamError(event.error);
    }
  }

  private start(index: number, block: BlockStart): StreamEvent[] {
    if (block.type === 'tool_use') {
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
    this.blocks.set(index, { kind: 'other' });
    return block.type === 'text' && block.text ? [{ type: 'text', delta: block.text }] : [];
  }

  private delta(index: number, delta: BlockDelta): StreamEvent[] {
    if (delta.type === 'text_delta' && delta.text) return [{ type: 'text', delta: delta.text }];
    const block = this.blocks.get(index);
    if (
      delta.type === 'input_json_delta' &&
      block?.kind === 'tool' &&
      typeof delta.partial_json === 'string'
    ) {
      block.bytes += Buffer.byteLength(delta.partial_json);
      // Past the limit nothing more is kept: the call becomes an "arguments too large" error, not a 20 MB string.
      block.json = block.bytes > this.toolCallBytes ? '' : block.json + delta.partial_json;
    }
    // thinking, signature and citation deltas carry nothing the neutral transcript keeps.
    return [];
  }

  private stop(index: number): StreamEvent[] {
    const block = this.blocks.get(index);
    this.blocks.delete(index);
    return block?.kind === 'tool' ? [toolCall(block, this.toolCallBytes)] : [];
  }

  private finish(): StreamEvent[] {
    this.finished = true;
    // A block never closed before message_stop is still a call the model made; hand it over as it stands.
    const open = [...this.blocks.entries()]
      .sort(([a], [b]) => a - b)
      .flatMap(([, b]) => (b.kind === 'tool' ? [toolCall(b, this.toolCallBytes)] : []));
    this.blocks.clear();
    const usage: { inputTokens?: number; outputTokens?: number } = {};
    if (this.inputTokens !== undefined) usage.inputTokens = this.inputTokens;
    if (this.outputTokens !== undefined) usage.outputTokens = this.outputTokens;
    return [...open, { type: 'done', stopReason: this.stopReason ?? 'end_turn', usage }];
  }

  private usage(usage: AnthropicUsage): void {
    // Counts may be missing or null (the schema lets both through); either leaves the count as it was.
    const input = usage?.input_tokens ?? undefined;
    if (input !== undefined) {
      // Cached prompt tokens are input too; the sum is what the request really consumed.
      this.inputTokens =
        input + (usage?.cache_creation_input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0);
    }
    this.outputTokens = usage?.output_tokens ?? this.outputTokens;
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
      `Anthropic sent an event that is not valid JSON: ${message.data.slice(0, 200)}`,
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
  return new ProviderError(kind, `Anthropic: ${type}: ${error?.message ?? 'error event in the stream'}`);
}
