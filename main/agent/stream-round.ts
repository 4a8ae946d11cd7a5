// One model round: stream a response into a sink that checkpoints it, collect complete tool calls.
import { streamFitted } from './context-fit';
import { effectiveLimit, omittedArgumentsMarker } from '../core/argument-size';
import type { Provider, ModelRequest, StreamEvent, TokenUsage } from './providers/provider';
import { ProviderError, unknownUsage } from './providers/provider';
import { MAX_ROUND_PARTS, MAX_ROUND_TEXT_CHARS } from './providers/stream-limits';
import type { AssistantPart, ReasoningPart, ToolCallPart } from '../store/transcript';

/** Where a round's assistant message is committed. */
export interface RoundSink {
  /** Takes the content so far; the sink saves it at least every 250 ms, at once when `now`. */
  checkpoint(content: AssistantPart[], now?: boolean): void;
  /** Shown after the checkpoint policy ran for this delta. */
  onText(delta: string): void;
  /** Reasoning as it streams (shown, never passed to a tool). */
  onReasoning(delta: string): void;
  onToolCall(call: ToolCallPart): void;
  /** The server refused an optional feature and the request went again without it: said to the person once. */
  onNotice(message: string): void;
}

/** How a round ended. */
export type RoundResult =
  | {
      kind: 'complete';
      content: AssistantPart[];
      toolCalls: ToolCallPart[];
      stopReason: string;
      usage: TokenUsage;
    }
  | { kind: 'cancelled'; content: AssistantPart[]; usage: TokenUsage }
  | { kind: 'failed'; content: AssistantPart[]; error: ProviderError; usage: TokenUsage };

// The bounds live with the providers' other stream limits: their decoders hold open calls to them too.
export { MAX_ROUND_PARTS, MAX_ROUND_TEXT_CHARS } from './providers/stream-limits';

/** Streams one response into `sink`; never throws for provider failures. `toolArgumentsBytes` bounds each call. */
export async function streamRound(
  provider: Provider,
  request: ModelRequest,
  sink: RoundSink,
  options: { toolArgumentsBytes?: number } = {},
): Promise<RoundResult> {
  const limit = effectiveLimit(options.toolArgumentsBytes);
  const parts = new RoundParts();
  // What the server reported before the end, for a round that does not reach it.
  let usage = unknownUsage();
  try {
    // A request too long for the model's context goes again with less of the older tool outputs (context-fit.ts).
    for await (const event of streamFitted(provider, request)) {
      switch (event.type) {
        case 'text': {
          parts.text(event.delta);
          sink.checkpoint(parts.content());
          sink.onText(event.delta);
          break;
        }
        case 'reasoning': {
          parts.reasoning(event.delta);
          sink.checkpoint(parts.content());
          sink.onReasoning(event.delta);
          break;
        }
        case 'reasoning_end':
          // Saved with the next checkpoint (at most 250 ms away), not at once: a stream of many small blocks must
          // not cost a write each.
          parts.endReasoning(event.part);
          sink.checkpoint(parts.content());
          break;
        case 'tool_call': {
          const call = toolCallPart(event, limit);
          parts.toolCall(call);
          sink.checkpoint(parts.content(), true);
          sink.onToolCall(call);
          break;
        }
        case 'feature_dropped':
          sink.onNotice(event.message);
          break;
        case 'usage':
          usage = event.usage;
          break;
        case 'done':
          return {
            kind: 'complete',
            content: parts.content(),
            toolCalls: parts.toolCalls(),
            stopReason: event.stopReason,
            usage: event.usage,
          };
      }
    }
    return {
      kind: 'failed',
      content: parts.withoutCalls(),
      error: new ProviderError('stream_cut', 'the response ended without finishing'),
      usage,
    };
  } catch (error) {
    if (request.signal?.aborted || (error instanceof ProviderError && error.kind === 'cancelled')) {
      return { kind: 'cancelled', content: parts.withoutCalls(), usage };
    }
    const failure =
      error instanceof ProviderError
        ? error
        : new ProviderError('network', (error as Error).message ?? String(error));
    // Tool calls of a cut response are dropped: they would have no results, and the model can make them again.
    return { kind: 'failed', content: parts.withoutCalls(), error: failure, usage };
  }
}

// An oversized call keeps a marker instead of its arguments, so nothing big is stored, shown or sent again.
function toolCallPart(event: Extract<StreamEvent, { type: 'tool_call' }>, limit: number): ToolCallPart {
  const { id, name } = event;
  const bytes = Buffer.byteLength(event.args);
  const tooLarge = event.tooLarge ?? (bytes > limit ? { bytes, limit } : undefined);
  if (!tooLarge) return { type: 'tool_call', id, name, args: event.args };
  return { type: 'tool_call', id, name, args: omittedArgumentsMarker(tooLarge), tooLarge };
}

/**
 * A round's parts in the order they streamed: reasoning blocks where they came (Anthropic wants them back in place),
 * text, tool calls. A reasoning block is open until its end event brings what goes back with it (a signature).
 */
class RoundParts {
  private readonly parts: AssistantPart[] = [];
  private open: ReasoningPart | null = null;
  private chars = 0;

  text(delta: string): void {
    this.count(delta);
    const last = this.parts.at(-1);
    if (last?.type === 'text') last.text += delta;
    else this.add({ type: 'text', text: delta });
  }

  reasoning(delta: string): void {
    this.count(delta);
    if (!this.open) {
      this.open = { type: 'reasoning', text: '' };
      this.add(this.open);
    }
    this.open.text += delta;
  }

  endReasoning(part: ReasoningPart): void {
    // The decoder's block is the whole truth (a redacted block streams no text at all).
    const index = this.open ? this.parts.indexOf(this.open) : -1;
    if (index >= 0) this.parts[index] = { ...part };
    else this.add({ ...part });
    this.open = null;
  }

  toolCall(call: ToolCallPart): void {
    // The name counts too: nothing but the event cap bounds it.
    this.count(call.name);
    this.count(call.args);
    this.add(call);
  }

  // Each checkpoint saves all of it: past the bound the round ends, keeping what streamed before this delta.
  private count(delta: string): void {
    this.chars += delta.length;
    if (this.chars > MAX_ROUND_TEXT_CHARS) {
      throw new ProviderError(
        'too_large',
        `the model's answer has more than ${MAX_ROUND_TEXT_CHARS.toLocaleString('en-US')} characters of text, ` +
          'reasoning and tool-call arguments; it was stopped there',
      );
    }
  }

  // Every part is copied on each checkpoint: past the bound the round ends, so a stream cannot make that quadratic.
  private add(part: AssistantPart): void {
    if (this.parts.length >= MAX_ROUND_PARTS) {
      throw new ProviderError(
        'too_large',
        `the model's answer has more than ${MAX_ROUND_PARTS} parts (text runs, reasoning blocks and tool calls); it was stopped there`,
      );
    }
    this.parts.push(part);
  }

  toolCalls(): ToolCallPart[] {
    return this.parts.filter((p): p is ToolCallPart => p.type === 'tool_call');
  }

  content(): AssistantPart[] {
    return this.parts.filter((p) => p.type !== 'text' || p.text !== '').map((p) => ({ ...p }));
  }

  /** What a cut or stopped round keeps: its calls would have no results, and the model can make them again. */
  withoutCalls(): AssistantPart[] {
    return this.content().filter((p) => p.type !== 'tool_call');
  }
}
