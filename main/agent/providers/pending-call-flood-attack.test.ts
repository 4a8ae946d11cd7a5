// A model server that opens tool calls without end and never finishes them (docs/robustness.md, "A provider stream
// always ends"): each call under its own index, each within limits.toolArgumentsBytes, no finish_reason (OpenAI) or
// content_block_stop (Anthropic). The decoder kept every open call until the end of the response, and the round's
// bounds (MAX_ROUND_TEXT_CHARS, MAX_ROUND_PARTS) only saw calls once they were complete: a thousand open calls of
// 1 MiB were a GB held in the decoder, and the stream went on until memory ran out. Open calls are now held to the
// same bounds as the round: past them the response ends as too large.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic';
import { OpenAiProvider } from './openai';
import type { ModelRequest } from './provider';
import type { CollectedStream } from './testing/collect-stream';
import { collectStream } from './testing/collect-stream';
import { startAnthropicTestServer } from './testing/anthropic-test-server';
import { openAiChunk, startOpenAiTestServer } from './testing/openai-test-server';
import type { ScriptedServer } from './testing/scripted-server';
import { formatFrame } from './testing/scripted-server';
import { MAX_ROUND_PARTS, MAX_ROUND_TEXT_CHARS } from './stream-limits';

let openai: ScriptedServer;
let anthropic: ScriptedServer;
beforeEach(async () => {
  openai = await startOpenAiTestServer();
  anthropic = await startAnthropicTestServer();
});
afterEach(async () => {
  await openai.close();
  await anthropic.close();
});

const request: ModelRequest = {
  model: 'm',
  system: 's',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
};
// Within the default 1 MiB per call.
const ARGS = JSON.stringify({ content: 'y'.repeat(1024 * 1024 - 64) });
// Three times the round's bound: far more than any answer, still cheap for the test to stream.
const BIG_CALLS = Math.ceil((3 * MAX_ROUND_TEXT_CHARS) / ARGS.length);

/** The stream's outcome, or 'hung' when it has not ended within 20 s. */
async function ends(stream: AsyncIterable<unknown>): Promise<CollectedStream | 'hung'> {
  const timeout = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 20_000));
  return Promise.race([collectStream(stream as never), timeout]);
}

/** The frames of `count` calls opened one after another, then the connection kept open. */
function openCalls(count: number, frames: (index: number) => string[], sent: { n: number }) {
  return async function* () {
    for (; sent.n < count; sent.n++) yield* frames(sent.n);
    await new Promise(() => undefined);
  };
}

const openAiCall = (args: string) => (index: number) => [
  formatFrame(
    openAiChunk({
      tool_calls: [
        { index, id: `c${index}`, type: 'function', function: { name: 'write_file', arguments: '' } },
      ],
    }),
  ),
  ...(args ? [formatFrame(openAiChunk({ tool_calls: [{ index, function: { arguments: args } }] }))] : []),
];

const anthropicCall = (args: string) => (index: number) => [
  formatFrame({
    event: 'content_block_start',
    data: {
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: `t${index}`, name: 'write_file', input: {} },
    },
  }),
  ...(args
    ? [
        formatFrame({
          event: 'content_block_delta',
          data: {
            type: 'content_block_delta',
            index,
            delta: { type: 'input_json_delta', partial_json: args },
          },
        }),
      ]
    : []),
];

const anthropicStart = formatFrame({
  event: 'message_start',
  data: {
    type: 'message_start',
    message: { id: 'm', type: 'message', role: 'assistant', content: [], usage: {} },
  },
});

function expectTooLarge(result: CollectedStream | 'hung', sent: number, count: number) {
  expect(result).not.toBe('hung');
  expect((result as CollectedStream).error).toMatchObject({ kind: 'too_large' });
  // Stopped at the bound, not at the end of what the server had.
  expect(sent).toBeLessThan(count);
}

describe('tool calls opened without end', () => {
  it('OpenAI-compatible: large open calls end the response at the round bound', async () => {
    const sent = { n: 0 };
    openai.enqueue({ raw: openCalls(BIG_CALLS, openAiCall(ARGS), sent) });
    const provider = new OpenAiProvider({ baseUrl: openai.baseUrl, apiKey: null });
    expectTooLarge(await ends(provider.stream(request)), sent.n, BIG_CALLS);
  }, 60_000);

  it('OpenAI-compatible: many small open calls end the response at the bound on parts', async () => {
    const sent = { n: 0 };
    const count = MAX_ROUND_PARTS * 500;
    openai.enqueue({ raw: openCalls(count, openAiCall(''), sent) });
    const provider = new OpenAiProvider({ baseUrl: openai.baseUrl, apiKey: null });
    expectTooLarge(await ends(provider.stream(request)), sent.n, count);
  }, 60_000);

  it('Anthropic: large open tool_use blocks end the response at the round bound', async () => {
    const sent = { n: 0 };
    const raw = openCalls(BIG_CALLS, anthropicCall(ARGS), sent);
    anthropic.enqueue({
      async *raw() {
        yield anthropicStart;
        yield* raw();
      },
    });
    const provider = new AnthropicProvider({ baseUrl: anthropic.baseUrl, apiKey: 'k' });
    expectTooLarge(await ends(provider.stream(request)), sent.n, BIG_CALLS);
  }, 60_000);

  it('Anthropic: many small open tool_use blocks end the response at the bound on parts', async () => {
    const sent = { n: 0 };
    const count = MAX_ROUND_PARTS * 500;
    const raw = openCalls(count, anthropicCall(''), sent);
    anthropic.enqueue({
      async *raw() {
        yield anthropicStart;
        yield* raw();
      },
    });
    const provider = new AnthropicProvider({ baseUrl: anthropic.baseUrl, apiKey: 'k' });
    expectTooLarge(await ends(provider.stream(request)), sent.n, count);
  }, 60_000);
});
