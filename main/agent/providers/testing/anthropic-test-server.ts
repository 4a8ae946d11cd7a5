// A scripted server speaking the Anthropic Messages API (POST /v1/messages, SSE), and builders for
// the event sequences a real response streams.
import type { ScriptedBlock, ScriptedServer, SseFrame } from './scripted-server';
import { pieces, startScriptedServer } from './scripted-server';
import type { CacheBill } from './cache-accounting';
import { CacheAccounting } from './cache-accounting';

/** Shape of a scripted response's stream. */
export interface AnthropicScriptOptions {
  /** Characters per text_delta / input_json_delta (default 8), so arguments arrive split. */
  chunkSize?: number;
  /** Default: tool_use when there is a tool call, else end_turn. */
  stopReason?: string;
  usage?: { input: number; output: number };
  /** Leave out message_stop (a stream that ends without its terminal event). */
  omitStop?: boolean;
}

/** A server that bills every request's prompt-cache use into its message_start usage, and keeps the bills. */
export interface CacheBillingServer extends ScriptedServer {
  bills: CacheBill[];
}

/**
 * Starts a local Anthropic-speaking server that bills each request as the prompt cache would (cache-accounting.ts):
 * message_start carries `input_tokens` (uncached), `cache_read_input_tokens` and `cache_creation_input_tokens`.
 */
export async function startCacheBillingServer(): Promise<CacheBillingServer> {
  const accounting = new CacheAccounting();
  const bills: CacheBill[] = [];
  const server = await startScriptedServer({
    path: '/v1/messages',
    basePath: '',
    errorBody: anthropicErrorBody,
    modelsPath: '/v1/models',
    answerFor: (body, response) => {
      if (!response.events || typeof body !== 'object' || body === null) return response;
      const bill = accounting.bill(body as Record<string, unknown>);
      bills.push(bill);
      return { ...response, events: response.events.map((frame) => billed(frame, bill)) };
    },
  });
  return Object.assign(server, { bills });
}

function billed(frame: SseFrame, bill: CacheBill): SseFrame {
  const data = frame.data as { type?: string; message?: Record<string, unknown> };
  if (data?.type !== 'message_start' || !data.message) return frame;
  const usage = {
    input_tokens: bill.input,
    cache_read_input_tokens: bill.cacheRead,
    cache_creation_input_tokens: bill.cacheWrite,
    output_tokens: 1,
  };
  return { ...frame, data: { ...data, message: { ...data.message, usage } } };
}

/** Starts a local Anthropic-speaking server; its baseUrl is the origin. */
export function startAnthropicTestServer(): Promise<ScriptedServer> {
  return startScriptedServer({
    path: '/v1/messages',
    basePath: '',
    errorBody: anthropicErrorBody,
    modelsPath: '/v1/models',
  });
}

/** The JSON error body the API sends with a failed status. */
export function anthropicErrorBody(status: number, message: string): unknown {
  const type =
    status === 401
      ? 'authentication_error'
      : status === 403
        ? 'permission_error'
        : status === 429
          ? 'rate_limit_error'
          : status === 529
            ? 'overloaded_error'
            : status >= 500
              ? 'api_error'
              : 'invalid_request_error';
  return { type: 'error', error: { type, message } };
}

/** The full event sequence of one streamed message: message_start … message_stop. */
export function anthropicEvents(blocks: ScriptedBlock[], options: AnthropicScriptOptions = {}): SseFrame[] {
  const size = options.chunkSize ?? 8;
  const usage = options.usage ?? { input: 10, output: 5 };
  const frames: SseFrame[] = [
    frame({
      type: 'message_start',
      message: {
        id: 'msg_test',
        type: 'message',
        role: 'assistant',
        model: 'claude-test',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: 1 },
      },
    }),
    frame({ type: 'ping' }),
  ];
  blocks.forEach((block, index) => {
    if ('text' in block) {
      frames.push(frame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }));
      for (const text of pieces(block.text, size)) {
        frames.push(frame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
      }
    } else if ('thinking' in block) {
      frames.push(
        frame({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } }),
      );
      for (const thinking of pieces(block.thinking, size)) {
        frames.push(
          frame({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } }),
        );
      }
      frames.push(
        frame({
          type: 'content_block_delta',
          index,
          delta: { type: 'signature_delta', signature: block.signature },
        }),
      );
    } else if ('redactedThinking' in block) {
      frames.push(
        frame({
          type: 'content_block_start',
          index,
          content_block: { type: 'redacted_thinking', data: block.redactedThinking },
        }),
      );
    } else if ('reasoning' in block) {
      throw new Error('reasoning blocks are OpenAI-compatible; use thinking on the Anthropic wire');
    } else {
      const { id, name, args } = block.toolCall;
      frames.push(
        frame({
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id, name, input: {} },
        }),
      );
      for (const partial of args === '' ? [] : pieces(args, size)) {
        frames.push(
          frame({
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: partial },
          }),
        );
      }
    }
    frames.push(frame({ type: 'content_block_stop', index }));
  });
  const stopReason = options.stopReason ?? (blocks.some((b) => 'toolCall' in b) ? 'tool_use' : 'end_turn');
  frames.push(
    frame({
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output },
    }),
  );
  if (!options.omitStop) frames.push(frame({ type: 'message_stop' }));
  return frames;
}

/** An `error` event as the API sends it mid-stream (e.g. overloaded_error). */
export function anthropicErrorEvent(type: string, message: string): SseFrame {
  return frame({ type: 'error', error: { type, message } });
}

function frame(data: { type: string } & Record<string, unknown>): SseFrame {
  return { event: data.type, data };
}
