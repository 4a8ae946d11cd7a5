// A scripted server speaking OpenAI-compatible Chat Completions (POST /v1/chat/completions, SSE
// `data:` chunks ending in [DONE]), and builders for the chunk sequences a real response streams.
import type { ScriptedBlock, ScriptedServer, SseFrame } from './scripted-server';
import { pieces, startScriptedServer } from './scripted-server';

/** Shape of a scripted response's stream. */
export interface OpenAiScriptOptions {
  /** Characters per content / arguments fragment (default 8), so arguments arrive split. */
  chunkSize?: number;
  /** Default: tool_calls when there is a tool call, else stop. */
  finishReason?: string;
  /** The include_usage chunk; null leaves it out. */
  usage?: { prompt: number; completion: number; cached?: number } | null;
  /** Leave out `data: [DONE]`. */
  omitDone?: boolean;
  /** Leave out the finish_reason chunk too (with omitDone: a stream cut before its end). */
  omitFinish?: boolean;
}

/** Starts a local OpenAI-compatible server; its baseUrl ends in /v1 like the real ones. */
export function startOpenAiTestServer(): Promise<ScriptedServer> {
  return startScriptedServer({
    path: '/v1/chat/completions',
    basePath: '/v1',
    errorBody: openAiErrorBody,
    modelsPath: '/v1/models',
  });
}

/** The JSON error body OpenAI sends with a failed status. */
export function openAiErrorBody(status: number, message: string): unknown {
  const type =
    status === 401
      ? 'invalid_api_key'
      : status === 429
        ? 'rate_limit_exceeded'
        : status >= 500
          ? 'server_error'
          : 'invalid_request_error';
  return { error: { message, type, param: null, code: type } };
}

/** The chunk sequence of one streamed completion: role, content, indexed tool-call fragments, finish, usage, [DONE]. */
export function openAiEvents(blocks: ScriptedBlock[], options: OpenAiScriptOptions = {}): SseFrame[] {
  const size = options.chunkSize ?? 8;
  const frames: SseFrame[] = [chunk({ role: 'assistant', content: '' })];
  let toolIndex = 0;
  for (const block of blocks) {
    if ('text' in block) {
      for (const content of pieces(block.text, size)) frames.push(chunk({ content }));
      continue;
    }
    if ('reasoning' in block || 'thinking' in block) {
      const text = 'reasoning' in block ? block.reasoning : block.thinking;
      const field = ('reasoning' in block && block.field) || 'reasoning_content';
      for (const piece of pieces(text, size)) frames.push(chunk({ content: null, [field]: piece }));
      continue;
    }
    if ('redactedThinking' in block) throw new Error('redacted thinking is Anthropic-only');
    const { id, name, args } = block.toolCall;
    const index = toolIndex++;
    // The first fragment names the call; the arguments follow in pieces, as OpenAI streams them.
    frames.push(chunk({ tool_calls: [{ index, id, type: 'function', function: { name, arguments: '' } }] }));
    for (const part of args === '' ? [] : pieces(args, size)) {
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
    }
  }
  if (!options.omitFinish) {
    const finishReason = options.finishReason ?? (toolIndex > 0 ? 'tool_calls' : 'stop');
    frames.push(chunk({}, finishReason));
  }
  const usage = options.usage === undefined ? { prompt: 10, completion: 5 } : options.usage;
  if (usage && !options.omitFinish) {
    frames.push({
      data: {
        ...base(),
        choices: [],
        usage: {
          prompt_tokens: usage.prompt,
          completion_tokens: usage.completion,
          total_tokens: usage.prompt + usage.completion,
          ...(usage.cached === undefined ? {} : { prompt_tokens_details: { cached_tokens: usage.cached } }),
        },
      },
    });
  }
  if (!options.omitDone) frames.push({ data: '[DONE]' });
  return frames;
}

/** One raw chunk with the given delta, for scripting what a particular server does. */
export function openAiChunk(delta: Record<string, unknown>, finishReason: string | null = null): SseFrame {
  return chunk(delta, finishReason);
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): SseFrame {
  return { data: { ...base(), choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] } };
}

function base() {
  return { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'gpt-test' };
}
