// A model server that keeps the connection busy without ever answering (docs/robustness.md, "A provider stream always
// ends"), every few milliseconds, forever, with either filler:
// - SSE comments (`: keep-alive`): each reset the idle wait; the waits now count only bytes of events, while one long
//   event arriving slowly still is progress (chat-stall.test.ts);
// - valid events of its own wire format with no text in them (empty deltas, role-only chunks, empty choices,
//   Anthropic's `ping`, empty text deltas): each was an event, so each reset the idle wait. Only events that carry part
//   of the answer count now; the empty ones are timed as silence, also when each arrives in two pieces.
// Either way the round, and a headless `agenvoy chat`, never ended.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic';
import { OpenAiProvider } from './openai';
import type { ModelRequest } from './provider';
import { anthropicEvents, startAnthropicTestServer } from './testing/anthropic-test-server';
import type { CollectedStream } from './testing/collect-stream';
import { collectStream } from './testing/collect-stream';
import { openAiChunk, openAiEvents, startOpenAiTestServer } from './testing/openai-test-server';
import type { ScriptedServer, SseFrame } from './testing/scripted-server';
import { formatFrame } from './testing/scripted-server';

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

const limits = { firstByteMs: 400, idleMs: 400 };
const fastRetry = { baseDelayMs: 5, maxDelayMs: 20 };
const request: ModelRequest = {
  model: 'm',
  system: 's',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
};

/** What a server sends between real events: the n-th filler, as the pieces it writes 5 ms apart. */
type Filler = (n: number) => string[];

/** `frames` first, then a filler every 10 ms, until the client goes away. */
function fillForever(frames: string[], filler: Filler) {
  return async function* () {
    yield* frames;
    for (let n = 0; ; n++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      for (const [i, piece] of filler(n).entries()) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 5));
        yield piece;
      }
    }
  };
}

/** The stream's outcome, or 'hung' when it has not ended within 8 s (20 times the limit). */
async function ends(stream: AsyncIterable<unknown>): Promise<CollectedStream | 'hung'> {
  const timeout = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 8000));
  return Promise.race([collectStream(stream as never), timeout]);
}

const OPENAI_EMPTY: SseFrame[] = [
  openAiChunk({ content: '' }),
  openAiChunk({ role: 'assistant' }),
  openAiChunk({}),
  openAiChunk({ reasoning_content: '' }),
  { data: { id: 'x', object: 'chat.completion.chunk', choices: [] } },
  // A call's fragment with no argument bytes, for a call already open.
  openAiChunk({ tool_calls: [{ index: 0, function: { arguments: '' } }] }),
];

const ANTHROPIC_EMPTY: SseFrame[] = [
  { event: 'ping', data: { type: 'ping' } },
  {
    event: 'content_block_delta',
    data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '' } },
  },
  { event: 'message_delta', data: { type: 'message_delta', delta: {}, usage: { output_tokens: 1 } } },
];

// Split as a proxy may write it: the unfinished comment line is no progress either.
const keepAlive: Filler = () => [': keep-', 'alive\n\n'];
// The event's first half grows the pending event: that is no answer either once it ends empty.
const emptyOf =
  (frames: SseFrame[]): Filler =>
  (n) => {
    const text = formatFrame(frames[n % frames.length]!);
    return [text.slice(0, 12), text.slice(12)];
  };

const FILLERS: Array<{ name: string; openAiFirst: Filler; openAi: Filler; anthropic: Filler }> = [
  { name: 'keep-alive comments', openAiFirst: keepAlive, openAi: keepAlive, anthropic: keepAlive },
  {
    name: 'empty events',
    // Before any call is open, a fragment would open one: that is part of an answer.
    openAiFirst: emptyOf(OPENAI_EMPTY.slice(0, -1)),
    openAi: emptyOf(OPENAI_EMPTY),
    anthropic: emptyOf(ANTHROPIC_EMPTY),
  },
];

describe.each(FILLERS)('$name without end', (filler) => {
  it('OpenAI-compatible, before any answer: a stall, retried once, then it stands', async () => {
    openai.enqueue(
      { raw: fillForever([], filler.openAiFirst) },
      { raw: fillForever([], filler.openAiFirst) },
    );
    const provider = new OpenAiProvider({ baseUrl: openai.baseUrl, apiKey: null, retry: fastRetry, limits });
    const result = await ends(provider.stream(request));
    expect(result).not.toBe('hung');
    expect((result as CollectedStream).error).toMatchObject({ kind: 'timeout' });
    expect(((result as CollectedStream).error as Error).message).toContain('limits.providerFirstByteSeconds');
    expect(openai.requests).toHaveLength(2);
  }, 20_000);

  it('OpenAI-compatible, after part of the answer: the round ends as stalled and keeps the text', async () => {
    const start = [openAiChunk({ role: 'assistant', content: 'partial' })].map(formatFrame);
    const opened = openAiChunk({
      tool_calls: [{ index: 0, id: 'c1', function: { name: 'x', arguments: '' } }],
    });
    openai.enqueue({ raw: fillForever([...start, formatFrame(opened)], filler.openAi) });
    const provider = new OpenAiProvider({ baseUrl: openai.baseUrl, apiKey: null, retry: fastRetry, limits });
    const result = await ends(provider.stream(request));
    expect(result).not.toBe('hung');
    expect((result as CollectedStream).error).toMatchObject({ kind: 'stream_cut' });
    expect(((result as CollectedStream).error as Error).message).toContain('limits.providerIdleSeconds');
    expect((result as CollectedStream).text).toBe('partial');
    expect(openai.requests).toHaveLength(1);
  }, 20_000);

  it('Anthropic, before any answer (message_start, then fillers): a stall, retried once', async () => {
    const start = anthropicEvents([{ text: 'x' }])
      .slice(0, 1)
      .map(formatFrame);
    anthropic.enqueue(
      { raw: fillForever(start, filler.anthropic) },
      { raw: fillForever(start, filler.anthropic) },
    );
    const provider = new AnthropicProvider({
      baseUrl: anthropic.baseUrl,
      apiKey: 'k',
      retry: fastRetry,
      limits,
    });
    const result = await ends(provider.stream(request));
    expect(result).not.toBe('hung');
    expect((result as CollectedStream).error).toMatchObject({ kind: 'timeout' });
    expect(anthropic.requests).toHaveLength(2);
  }, 20_000);

  it('Anthropic, after part of the answer: the round ends as stalled and keeps the text', async () => {
    const frames = anthropicEvents([{ text: 'partial' }])
      .slice(0, 4)
      .map(formatFrame);
    anthropic.enqueue({ raw: fillForever(frames, filler.anthropic) });
    const provider = new AnthropicProvider({
      baseUrl: anthropic.baseUrl,
      apiKey: 'k',
      retry: fastRetry,
      limits,
    });
    const result = await ends(provider.stream(request));
    expect(result).not.toBe('hung');
    expect((result as CollectedStream).error).toMatchObject({ kind: 'stream_cut' });
    expect(((result as CollectedStream).error as Error).message).toContain('the stream stalled');
    expect((result as CollectedStream).text).toBe('partial');
    expect(anthropic.requests).toHaveLength(1);
  }, 20_000);

  it('a slow but real answer still gets through: real events under the limit apart, fillers between', async () => {
    const frames = openAiEvents([{ text: 'slow but steady' }], { chunkSize: 3 }).map(formatFrame);
    openai.enqueue({
      async *raw() {
        for (const frame of frames) {
          // The first real frame is role-only (no progress): two real frames fall within one limit.
          for (let i = 0; i < 3; i++) {
            await new Promise((resolve) => setTimeout(resolve, 40));
            yield filler.openAiFirst(i).join('');
          }
          yield frame;
        }
      },
    });
    const provider = new OpenAiProvider({ baseUrl: openai.baseUrl, apiKey: null, retry: fastRetry, limits });
    const result = await ends(provider.stream(request));
    expect(result).not.toBe('hung');
    expect((result as CollectedStream).error).toBeUndefined();
    expect((result as CollectedStream).text).toBe('slow but steady');
  }, 20_000);
});
