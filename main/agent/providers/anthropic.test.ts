import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from './anthropic';
import type { ModelRequest } from './provider';
import { ProviderError } from './provider';
import {
  anthropicErrorBody,
  anthropicErrorEvent,
  anthropicEvents,
  startAnthropicTestServer,
} from './testing/anthropic-test-server';
import { collectStream } from './testing/collect-stream';
import type { ScriptedServer } from './testing/scripted-server';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startAnthropicTestServer();
});
afterEach(async () => {
  await server.close();
});

const fastRetry = { baseDelayMs: 5, maxDelayMs: 20 };
const provider = (options: Partial<ConstructorParameters<typeof AnthropicProvider>[0]> = {}) =>
  new AnthropicProvider({
    baseUrl: server.baseUrl,
    apiKey: 'sk-test',
    keyName: 'ANTHROPIC_API_KEY',
    retry: fastRetry,
    ...options,
  });
const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'claude-test',
  system: 'You are terse.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  tools: [
    {
      name: 'read_file',
      description: 'Read a file.',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
    },
  ],
  ...extra,
});

describe('AnthropicProvider', () => {
  it('streams text as it arrives, ends with done and usage, and sends the documented request', async () => {
    server.enqueue({
      events: anthropicEvents([{ text: 'Hello there, how can I help?' }], {
        chunkSize: 5,
        usage: { input: 12, output: 7 },
      }),
    });
    const result = await collectStream(provider().stream(request()));
    expect(result.error).toBeUndefined();
    expect(result.events.filter((e) => e.type === 'text')).toHaveLength(6);
    expect(result.text).toBe('Hello there, how can I help?');
    expect(result.events.at(-1)).toEqual({
      type: 'done',
      stopReason: 'end_turn',
      usage: { inputTokens: 12, outputTokens: 7, cacheReadTokens: null, cacheWriteTokens: null },
    });
    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe('sk-test');
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.body).toEqual({
      model: 'claude-test',
      max_tokens: 8192,
      stream: true,
      system: 'You are terse.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      tools: [
        {
          name: 'read_file',
          description: 'Read a file.',
          input_schema: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ],
    });
  });

  it('assembles tool calls streamed in many small input_json_delta pieces, parallel calls in order', async () => {
    const argsA = JSON.stringify({ path: '/tmp/a very long file name/with spaces.txt', encoding: 'utf8' });
    const argsB = JSON.stringify({ path: 'b.txt' });
    server.enqueue({
      events: anthropicEvents(
        [
          { text: 'Reading both.' },
          { toolCall: { id: 'toolu_a', name: 'read_file', args: argsA } },
          { toolCall: { id: 'toolu_b', name: 'read_file', args: argsB } },
        ],
        { chunkSize: 3 },
      ),
      splitBytes: 7,
    });
    const result = await collectStream(provider().stream(request()));
    expect(result.error).toBeUndefined();
    expect(result.events.filter((e) => e.type !== 'text')).toEqual([
      // What message_start reported, ahead of the first output.
      {
        type: 'usage',
        usage: { inputTokens: 10, outputTokens: 1, cacheReadTokens: null, cacheWriteTokens: null },
      },
      { type: 'tool_call', id: 'toolu_a', name: 'read_file', args: argsA },
      { type: 'tool_call', id: 'toolu_b', name: 'read_file', args: argsB },
      {
        type: 'done',
        stopReason: 'tool_use',
        usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: null, cacheWriteTokens: null },
      },
    ]);
  });

  it('passes malformed tool-call JSON through raw, and a call without input as {}', async () => {
    server.enqueue({
      events: anthropicEvents([
        { toolCall: { id: 'toolu_bad', name: 'read_file', args: '{"path": "a.txt",' } },
        { toolCall: { id: 'toolu_none', name: 'list_tasks', args: '' } },
      ]),
    });
    const result = await collectStream(provider().stream(request()));
    expect(result.events.filter((e) => e.type === 'tool_call')).toEqual([
      { type: 'tool_call', id: 'toolu_bad', name: 'read_file', args: '{"path": "a.txt",' },
      { type: 'tool_call', id: 'toolu_none', name: 'list_tasks', args: '{}' },
    ]);
  });

  it('retries a 429 after the retry-after it names, then succeeds', async () => {
    server.enqueue(
      {
        status: 429,
        headers: { 'retry-after': '1' },
        body: anthropicErrorBody(429, 'Number of requests has exceeded your rate limit'),
      },
      { events: anthropicEvents([{ text: 'ok' }]) },
    );
    const started = Date.now();
    const result = await collectStream(provider().stream(request()));
    expect(result.text).toBe('ok');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('retries 500 and 529, and gives up after maxAttempts with the server error', async () => {
    server.enqueue({ status: 500 }, { status: 529 }, { events: anthropicEvents([{ text: 'third time' }]) });
    expect((await collectStream(provider().stream(request()))).text).toBe('third time');
    server.enqueue({ status: 503 }, { status: 503 });
    const failed = await collectStream(
      provider({ retry: { ...fastRetry, maxAttempts: 2 } }).stream(request()),
    );
    expect(failed.error).toBeInstanceOf(ProviderError);
    expect(failed.error).toMatchObject({ kind: 'server', status: 503 });
    expect(server.requests).toHaveLength(5);
  });

  it('maps 401 to an auth error naming the key, without retrying', async () => {
    server.enqueue({ status: 401, body: anthropicErrorBody(401, 'invalid x-api-key') });
    const result = await collectStream(provider().stream(request()));
    expect(result.error).toMatchObject({ kind: 'auth', status: 401, keyName: 'ANTHROPIC_API_KEY' });
    expect((result.error as Error).message).toContain('invalid x-api-key');
    expect(server.requests).toHaveLength(1);
  });

  it('reports a missing key as auth before any request, and a 400 as bad_request with the API message', async () => {
    const missing = await collectStream(provider({ apiKey: null }).stream(request()));
    expect(missing.error).toMatchObject({ kind: 'auth', keyName: 'ANTHROPIC_API_KEY' });
    expect(server.requests).toHaveLength(0);
    server.enqueue({
      status: 400,
      body: anthropicErrorBody(400, 'messages.1: tool_use ids were found without tool_result blocks'),
    });
    const bad = await collectStream(provider().stream(request()));
    expect(bad.error).toMatchObject({ kind: 'bad_request', status: 400 });
    expect((bad.error as Error).message).toContain('tool_use ids were found');
  });

  it('retries an overloaded error event that comes before any output', async () => {
    server.enqueue(
      { events: [anthropicEvents([])[0]!, anthropicErrorEvent('overloaded_error', 'Overloaded')] },
      { events: anthropicEvents([{ text: 'fine' }]) },
    );
    const result = await collectStream(provider().stream(request()));
    expect(result.text).toBe('fine');
    expect(server.requests).toHaveLength(2);
  });

  it('an error event after some output keeps the output and ends as stream_cut', async () => {
    const events = anthropicEvents([{ text: 'The answer is' }], { chunkSize: 4 }).slice(0, 5);
    server.enqueue({ events: [...events, anthropicErrorEvent('overloaded_error', 'Overloaded')] });
    const result = await collectStream(provider().stream(request()));
    expect(result.text).toBe('The answ');
    expect(result.error).toMatchObject({ kind: 'stream_cut' });
    expect(server.requests).toHaveLength(1);
  });

  it('a socket cut mid-stream delivers what came before, then stream_cut', async () => {
    server.enqueue({
      events: anthropicEvents([{ text: 'abcdefghijklmnop' }], { chunkSize: 4 }),
      cutAfter: 5,
    });
    const result = await collectStream(provider().stream(request()));
    expect(result.text).toBe('abcdefgh');
    expect(result.error).toBeInstanceOf(ProviderError);
    expect(result.error).toMatchObject({ kind: 'stream_cut' });
    expect(server.requests).toHaveLength(1);
  });

  it('a stream that ends cleanly without message_stop is stream_cut, with the tool call that completed', async () => {
    server.enqueue({
      events: anthropicEvents([{ toolCall: { id: 'toolu_1', name: 'read_file', args: '{"path":"x"}' } }], {
        omitStop: true,
      }),
    });
    const result = await collectStream(provider().stream(request()));
    expect(result.events.filter((e) => e.type !== 'usage')).toEqual([
      { type: 'tool_call', id: 'toolu_1', name: 'read_file', args: '{"path":"x"}' },
    ]);
    expect(result.error).toMatchObject({ kind: 'stream_cut' });
  });

  it('cancelling mid-stream stops at once with cancelled and closes the connection', async () => {
    server.enqueue({ events: anthropicEvents([{ text: 'first part' }]).slice(0, 4), hang: true });
    const controller = new AbortController();
    const seen: string[] = [];
    let error: unknown;
    try {
      for await (const event of provider().stream(request({ signal: controller.signal }))) {
        if (event.type !== 'text') continue;
        seen.push(event.delta);
        controller.abort(new Error('stopped by the user'));
      }
    } catch (caught) {
      error = caught;
    }
    expect(seen).toEqual(['first pa']);
    expect(error).toMatchObject({ kind: 'cancelled', message: 'stopped by the user' });
    await expect.poll(() => server.clientAborts()).toBe(1);
  });

  it('a caller that stops reading early releases the connection', async () => {
    server.enqueue({
      events: anthropicEvents([{ text: 'a long answer' }], { chunkSize: 2 }),
      hang: true,
      delayMs: 5,
    });
    for await (const event of provider().stream(request())) {
      if (event.type === 'text') break;
    }
    await expect.poll(() => server.clientAborts()).toBe(1);
  });

  it('names an unreachable server as a network error after its retries', async () => {
    const origin = server.origin;
    await server.close();
    const result = await collectStream(
      provider({ baseUrl: origin, retry: { ...fastRetry, maxAttempts: 2 } }).stream(request()),
    );
    expect(result.error).toMatchObject({ kind: 'network' });
    expect((result.error as Error).message).toContain(origin);
    server = await startAnthropicTestServer();
  });
});

describe('prompt caching', () => {
  const later = request({
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
      { role: 'user', content: [{ type: 'text', text: 'And now?' }] },
    ],
  });
  const marks = (index: number) =>
    (JSON.stringify(server.requests[index]?.body).match(/"cache_control"/g) ?? []).length;

  it('sends no breakpoint in a chat’s first request, and breakpoints on later ones', async () => {
    server.enqueue(
      { events: anthropicEvents([{ text: 'a' }]) },
      { events: anthropicEvents([{ text: 'b' }]) },
    );
    await collectStream(provider().stream(request()));
    await collectStream(provider().stream(later));
    expect(marks(0)).toBe(0);
    // The system block (tools + system), the previous round's end and this request's end.
    expect(marks(1)).toBe(3);
    expect(server.requests[1]?.body.system).toEqual([
      { type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('a server that refuses cache_control gets the request again without it, and no breakpoints afterwards', async () => {
    server.enqueue(
      {
        status: 400,
        body: anthropicErrorBody(400, 'messages.0.content.0.cache_control: Extra inputs are not permitted'),
      },
      { events: anthropicEvents([{ text: 'uncached' }]) },
      { events: anthropicEvents([{ text: 'again' }]) },
    );
    const { text, error } = await collectStream(provider().stream(later));
    expect(error).toBeUndefined();
    expect(text).toBe('uncached');
    expect(marks(0)).toBe(3);
    expect(marks(1)).toBe(0);
    await collectStream(provider().stream(later));
    expect(marks(2)).toBe(0);
    expect(server.requests).toHaveLength(3);
  });

  it('any other 400 is not retried without caching', async () => {
    server.enqueue({ status: 400, body: anthropicErrorBody(400, 'max_tokens: too large') });
    const { error } = await collectStream(provider().stream(later));
    expect(error).toBeInstanceOf(ProviderError);
    expect(server.requests).toHaveLength(1);
  });
});
