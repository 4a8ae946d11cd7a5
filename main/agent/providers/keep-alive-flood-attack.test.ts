// A model server that keeps the connection busy without ever answering (docs/robustness.md, "A provider stream always
// ends"): SSE comments (`: keep-alive`) every few milliseconds, forever. Each one reset the idle wait, so the round,
// and a headless `agenvoy chat`, never ended. The waits now count only bytes of events: a comment is not an answer,
// while one long event arriving slowly still is progress (chat-stall.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic';
import { OpenAiProvider } from './openai';
import type { ModelRequest } from './provider';
import { anthropicEvents, startAnthropicTestServer } from './testing/anthropic-test-server';
import type { CollectedStream } from './testing/collect-stream';
import { collectStream } from './testing/collect-stream';
import { openAiEvents, startOpenAiTestServer } from './testing/openai-test-server';
import type { ScriptedServer } from './testing/scripted-server';
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

/** `frames` first, then a keep-alive comment every 20 ms until the client goes away. */
function keepAliveForever(frames: string[]) {
  return async function* () {
    yield* frames;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Split as a proxy may write it: the unfinished comment line is no progress either.
      yield ': keep-';
      yield 'alive\n\n';
    }
  };
}

/** The stream's outcome, or 'hung' when it has not ended within 8 s (20 times the limit). */
async function ends(stream: AsyncIterable<unknown>): Promise<CollectedStream | 'hung'> {
  const timeout = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 8000));
  return Promise.race([collectStream(stream as never), timeout]);
}

describe('keep-alive comments without end', () => {
  it('OpenAI-compatible, before any answer: a stall, retried once, then it stands', async () => {
    openai.enqueue({ raw: keepAliveForever([]) }, { raw: keepAliveForever([]) });
    const provider = new OpenAiProvider({ baseUrl: openai.baseUrl, apiKey: null, retry: fastRetry, limits });
    const result = await ends(provider.stream(request));
    expect(result).not.toBe('hung');
    expect((result as CollectedStream).error).toMatchObject({ kind: 'timeout' });
    expect(openai.requests).toHaveLength(2);
  }, 20_000);

  it('Anthropic, after part of the answer: the round ends as stalled and keeps the text', async () => {
    const frames = anthropicEvents([{ text: 'partial' }])
      .slice(0, 4)
      .map(formatFrame);
    anthropic.enqueue({ raw: keepAliveForever(frames) });
    const provider = new AnthropicProvider({
      baseUrl: anthropic.baseUrl,
      apiKey: 'k',
      retry: fastRetry,
      limits,
    });
    const result = await ends(provider.stream(request));
    expect(result).not.toBe('hung');
    // After output a stall is a cut, not retried (stream-limits.test.ts).
    expect((result as CollectedStream).error).toMatchObject({ kind: 'stream_cut' });
    expect(((result as CollectedStream).error as Error).message).toContain('the stream stalled');
    expect((result as CollectedStream).text).toBe('partial');
    expect(anthropic.requests).toHaveLength(1);
  }, 20_000);

  it('a slow but real answer still gets through: events under the limit apart, comments between them', async () => {
    const frames = openAiEvents([{ text: 'slow but steady' }], { chunkSize: 3 }).map(formatFrame);
    openai.enqueue({
      async *raw() {
        for (const frame of frames) {
          for (let i = 0; i < 5; i++) {
            await new Promise((resolve) => setTimeout(resolve, 40));
            yield ': keep-alive\n\n';
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
