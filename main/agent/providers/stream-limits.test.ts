// Bounds on a model's stream, against real scripted servers speaking both wire formats: a server that hangs, goes
// silent, drips, cuts, or sends a 300 MB line without an end ends the call with an error naming the setting.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic';
import { OpenAiProvider } from './openai';
import type { ModelRequest, StreamEvent } from './provider';
import { ProviderError } from './provider';
import { anthropicEvents, startAnthropicTestServer } from './testing/anthropic-test-server';
import { collectStream } from './testing/collect-stream';
import { openAiEvents, startOpenAiTestServer } from './testing/openai-test-server';
import type { ScriptedServer } from './testing/scripted-server';
import { formatFrame } from './testing/scripted-server';
import type { StreamLimits } from './stream-limits';

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

const fastRetry = { baseDelayMs: 5, maxDelayMs: 20 };
const openAi = (limits: Partial<StreamLimits> = {}) =>
  new OpenAiProvider({ baseUrl: openai.baseUrl, apiKey: null, retry: fastRetry, limits });
const claude = (limits: Partial<StreamLimits> = {}) =>
  new AnthropicProvider({ baseUrl: anthropic.baseUrl, apiKey: 'k', retry: fastRetry, limits });
const request: ModelRequest = {
  model: 'm',
  system: 's',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [],
};

// Runs `work` while sampling the process's resident memory; returns its result and the peak growth in MB.
async function peakRss<T>(work: () => Promise<T>): Promise<{ value: T; growthMb: number }> {
  globalThis.gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, growthMb: (peak - base) / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

describe('the first-byte limit', () => {
  it('ends a server that sends headers and then nothing, retrying once and not five times', async () => {
    openai.enqueue({ events: [], hang: true }, { events: [], hang: true }, { events: [], hang: true });
    const started = Date.now();
    const result = await collectStream(openAi({ firstByteMs: 200 }).stream(request));
    expect(result.error).toBeInstanceOf(ProviderError);
    expect(result.error).toMatchObject({ kind: 'timeout' });
    expect((result.error as Error).message).toBe(
      'OpenAI-compatible server: no answer within 0.2 s of the request (settings.json limits.providerFirstByteSeconds)',
    );
    expect(openai.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect.poll(() => openai.clientAborts()).toBe(2);
  });

  it('ends a server that never even sends headers', async () => {
    anthropic.enqueue({ silent: true }, { silent: true });
    const result = await collectStream(claude({ firstByteMs: 150 }).stream(request));
    expect(result.error).toMatchObject({ kind: 'timeout' });
    expect((result.error as Error).message).toMatch(/^Anthropic: no answer within 0.15 s of the request/);
    expect(anthropic.requests).toHaveLength(2);
  });

  it('a retry after a stall that answers in time gives the whole answer', async () => {
    openai.enqueue({ events: [], hang: true }, { events: openAiEvents([{ text: 'late but whole' }]) });
    const result = await collectStream(openAi({ firstByteMs: 200 }).stream(request));
    expect(result.error).toBeUndefined();
    expect(result.text).toBe('late but whole');
  });
});

describe('the idle limit', () => {
  it('ends a stream that stalls after output, keeps the output and does not retry', async () => {
    anthropic.enqueue({ events: anthropicEvents([{ text: 'half an answer' }]).slice(0, 4), hang: true });
    const result = await collectStream(claude({ idleMs: 200 }).stream(request));
    expect(result.text).toBe('half an ');
    expect(result.error).toMatchObject({ kind: 'stream_cut' });
    expect((result.error as Error).message).toBe(
      'the response was cut off: Anthropic: the stream stalled: nothing arrived for 0.2 s ' +
        '(settings.json limits.providerIdleSeconds)',
    );
    expect(anthropic.requests).toHaveLength(1);
  });

  it('lets a slow drip through: every gap is under the limit though the whole takes many times it', async () => {
    const [first, ...rest] = openAiEvents([{ text: 'slow but steady' }], { chunkSize: 3, usage: null }).map(
      formatFrame,
    );
    // The role-only first chunk and a usage chunk carry none of the answer: dripped, their time would count as
    // silence (filler-flood-attack.test.ts), so the first comes whole, as servers send it, and usage is left
    // out; the answer's events drip.
    const pieces = [first!, ...(rest.join('').match(/[\s\S]{1,40}/g) ?? [])];
    openai.enqueue({ raw: () => pieces, delayMs: 25 });
    const started = Date.now();
    const result = await collectStream(openAi({ firstByteMs: 250, idleMs: 250 }).stream(request));
    expect(result.error).toBeUndefined();
    expect(result.text).toBe('slow but steady');
    expect(Date.now() - started).toBeGreaterThan(250);
  });

  it('a drip of keep-alive comments with a gap past the limit still ends', async () => {
    async function* drip() {
      for (let i = 0; i < 5; i++) yield ': keep-alive\n\n';
      await new Promise((r) => setTimeout(r, 1000));
      yield ': too late\n\n';
    }
    openai.enqueue({ raw: drip, delayMs: 20, hang: true }, { raw: drip, delayMs: 20, hang: true });
    const result = await collectStream(openAi({ idleMs: 200, firstByteMs: 200 }).stream(request));
    // Comments yield no event: nothing streamed, so the stall is retried once, then stands. A comment is no answer,
    // so the wait that runs out is the first one (filler-flood-attack.test.ts).
    expect(result.error).toMatchObject({ kind: 'timeout' });
    expect((result.error as Error).message).toContain('no answer within 0.2 s of the request');
    expect(openai.requests).toHaveLength(2);
  });
});

describe('the event cap', () => {
  it('stops a 300 MB line without a newline at 8 MiB, with bounded memory, and does not retry', async () => {
    const piece = Buffer.alloc(1024 * 1024, 'x'.charCodeAt(0));
    let sent = 0;
    function* giant() {
      yield 'data: ';
      for (let i = 0; i < 300; i++) {
        sent += 1;
        yield piece;
      }
    }
    anthropic.enqueue({ raw: giant }, { raw: giant });
    const started = Date.now();
    const { value: result, growthMb } = await peakRss(() => collectStream(claude().stream(request)));
    expect(result.error).toMatchObject({ kind: 'too_large' });
    expect((result.error as Error).message).toBe(
      'Anthropic: one event of the stream passed 8 MiB (settings.json limits.providerEventBytes); the stream was stopped',
    );
    expect(anthropic.requests).toHaveLength(1);
    // The server stopped soon after the client went away: nowhere near the 300 MB were sent.
    expect(sent).toBeLessThan(100);
    expect(growthMb).toBeLessThan(150);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it('counts data lines of one event together, and a smaller cap from the settings applies', async () => {
    const line = `data: ${'y'.repeat(1000)}\n`;
    openai.enqueue({ raw: () => Array.from({ length: 100 }, () => line) });
    const result = await collectStream(openAi({ eventBytes: 64 * 1024 }).stream(request));
    expect(result.error).toMatchObject({ kind: 'too_large' });
    expect((result.error as Error).message).toContain('passed 64 KiB');
  });

  it('a socket cut in the middle of a long line is a cut, not a hang', async () => {
    openai.enqueue({ raw: () => ['data: {"choices":[{"delta":{"content":"', 'x'.repeat(5000)], cutAfter: 2 });
    openai.enqueue({ raw: () => ['data: {"choices":[{"delta":{"content":"', 'x'.repeat(5000)], cutAfter: 2 });
    openai.enqueue({ raw: () => ['data: {"choices":[{"delta":{"content":"', 'x'.repeat(5000)], cutAfter: 2 });
    const result = await collectStream(
      new OpenAiProvider({ baseUrl: openai.baseUrl, retry: { ...fastRetry, maxAttempts: 3 } }).stream(
        request,
      ),
    );
    expect(result.error).toBeInstanceOf(ProviderError);
    expect(result.text).toBe('');
  });

  it('reads only the start of a huge error page', async () => {
    openai.enqueue({ status: 500, body: 'e'.repeat(20 * 1024 * 1024) });
    const result = await collectStream(
      new OpenAiProvider({ baseUrl: openai.baseUrl, retry: { ...fastRetry, maxAttempts: 1 } }).stream(
        request,
      ),
    );
    expect(result.error).toMatchObject({ kind: 'server', status: 500 });
    expect((result.error as Error).message.length).toBeLessThan(700);
  });
});

describe('the tool-call cap', () => {
  const bigArgs = JSON.stringify({ items: [{ text: 'z'.repeat(3 * 1024 * 1024), done: false }] });
  const bytes = Buffer.byteLength(bigArgs);
  const limit = 1024 * 1024;

  it('OpenAI: arguments past the cap are dropped and counted, the small call beside them is whole', async () => {
    openai.enqueue({
      events: openAiEvents(
        [
          { toolCall: { id: 'big', name: 'write_todo', args: bigArgs } },
          { toolCall: { id: 'small', name: 'read_file', args: '{"path":"a"}' } },
        ],
        { chunkSize: 64 * 1024 },
      ),
    });
    const result = await collectStream(openAi({ toolCallBytes: limit }).stream(request));
    const calls = result.events.filter(
      (e): e is Extract<StreamEvent, { type: 'tool_call' }> => e.type === 'tool_call',
    );
    expect(calls).toEqual([
      { type: 'tool_call', id: 'big', name: 'write_todo', args: '', tooLarge: { bytes, limit } },
      { type: 'tool_call', id: 'small', name: 'read_file', args: '{"path":"a"}' },
    ]);
  });

  it('Anthropic: streamed input past the cap, and an input given whole in the start event, are both counted', async () => {
    const frames = anthropicEvents([{ toolCall: { id: 'big', name: 'write_todo', args: bigArgs } }], {
      chunkSize: 64 * 1024,
    });
    anthropic.enqueue({ events: frames });
    const streamed = await collectStream(claude({ toolCallBytes: limit }).stream(request));
    expect(streamed.events.find((e) => e.type === 'tool_call')).toEqual({
      type: 'tool_call',
      id: 'big',
      name: 'write_todo',
      args: '',
      tooLarge: { bytes, limit },
    });
    // A proxy that puts the whole input into content_block_start (one 3 MiB event, under the event cap).
    const whole = anthropicEvents([{ toolCall: { id: 'whole', name: 'write_todo', args: '' } }]).map((f) =>
      (f.data as { type: string }).type === 'content_block_start'
        ? {
            ...f,
            data: {
              ...(f.data as object),
              content_block: {
                type: 'tool_use',
                id: 'whole',
                name: 'write_todo',
                input: JSON.parse(bigArgs),
              },
            },
          }
        : f,
    );
    anthropic.enqueue({ events: whole });
    const started = await collectStream(claude({ toolCallBytes: limit }).stream(request));
    expect(started.events.find((e) => e.type === 'tool_call')).toMatchObject({
      id: 'whole',
      args: '',
      tooLarge: { bytes, limit },
    });
  });
});
