// One model round: stream a response into a sink that checkpoints it, collect complete tool calls.
import { effectiveLimit, omittedArgumentsMarker } from '../core/argument-size';
import type { Provider, ModelRequest, StreamEvent } from './providers/provider';
import { ProviderError } from './providers/provider';
import type { AssistantPart, ToolCallPart } from '../store/transcript';

/** Where a round's assistant message is committed. */
export interface RoundSink {
  /** Takes the content so far; the sink saves it at least every 250 ms, at once when `now`. */
  checkpoint(content: AssistantPart[], now?: boolean): void;
  /** Shown after the checkpoint policy ran for this delta. */
  onText(delta: string): void;
  onToolCall(call: ToolCallPart): void;
}

/** How a round ended. */
export type RoundResult =
  | { kind: 'complete'; content: AssistantPart[]; toolCalls: ToolCallPart[]; stopReason: string }
  | { kind: 'cancelled'; content: AssistantPart[] }
  | { kind: 'failed'; content: AssistantPart[]; error: ProviderError };

/** Streams one response into `sink`; never throws for provider failures. `toolArgumentsBytes` bounds each call. */
export async function streamRound(
  provider: Provider,
  request: ModelRequest,
  sink: RoundSink,
  options: { toolArgumentsBytes?: number } = {},
): Promise<RoundResult> {
  const limit = effectiveLimit(options.toolArgumentsBytes);
  let text = '';
  const toolCalls: ToolCallPart[] = [];
  const content = (): AssistantPart[] => [...(text ? [{ type: 'text' as const, text }] : []), ...toolCalls];
  try {
    for await (const event of provider.stream(request)) {
      switch (event.type) {
        case 'text': {
          text += event.delta;
          sink.checkpoint(content());
          sink.onText(event.delta);
          break;
        }
        case 'tool_call': {
          toolCalls.push(toolCallPart(event, limit));
          sink.checkpoint(content(), true);
          sink.onToolCall(toolCalls.at(-1) as ToolCallPart);
          break;
        }
        case 'done':
          return { kind: 'complete', content: content(), toolCalls, stopReason: event.stopReason };
      }
    }
    return {
      kind: 'failed',
      content: textOnly(text),
      error: new ProviderError('stream_cut', 'the response ended without finishing'),
    };
  } catch (error) {
    if (request.signal?.aborted || (error instanceof ProviderError && error.kind === 'cancelled')) {
      return { kind: 'cancelled', content: textOnly(text) };
    }
    const failure =
      error instanceof ProviderError
        ? error
        : new ProviderError('network', (error as Error).message ?? String(error));
    // Tool calls of a cut response are dropped: they would have no results, and the model can make them again.
    return { kind: 'failed', content: textOnly(text), error: failure };
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

function textOnly(text: string): AssistantPart[] {
  return text ? [{ type: 'text', text }] : [];
}
