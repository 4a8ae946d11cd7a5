import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiProvider } from './openai';
import type { ModelRequest } from './provider';
import { ProviderError } from './provider';
import { collectStream } from './testing/collect-stream';
import {
  openAiChunk,
  openAiErrorBody,
  openAiEvents,
  startOpenAiTestServer,
} from './testing/openai-test-server';
import type { ScriptedServer } from './testing/scripted-server';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startOpenAiTestServer();
});
afterEach(async () => {
  await server.close();
});

const fastRetry = { baseDelayMs: 5, maxDelayMs: 20 };
const provider = (options: Partial<ConstructorParameters<typeof OpenAiProvider>[0]> = {}) =>
  new OpenAiProvider({
    baseUrl: server.baseUrl,
    apiKey: 'sk-test',
    keyName: 'OPENAI_API_KEY',
    retry: fastRetry,
    ...options,
  });
const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'gpt-test',
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

describe('OpenAiProvider', () => {
  it('streams content deltas, ends with done and usage, and sends the documented request', async () => {
    server.enqueue({
      events: openAiEvents([{ text: 'Hello there, how can I help?' }], {
        chunkSize: 5,
        usage: { prompt: 21, completion: 8 },
      }),
    });
    const result = await collectStream(provider().stream(request({ maxTokens: 300 })));
    expect(result.error).toBeUndefined();
    expect(result.events.filter((e) => e.type === 'text')).toHaveLength(6);
    expect(result.text).toBe('Hello there, how can I help?');
    expect(result.events.at(-1)).toEqual({
      type: 'done',
      stopReason: 'stop',
      usage: { inputTokens: 21, outputTokens: 8, cacheReadTokens: null, cacheWriteTokens: null },
    });
    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe('Bearer sk-test');
    expect(sent?.body).toEqual({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 300,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hi' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'read_file',
            description: 'Read a file.',
            parameters: { type: 'object', properties: { path: { type: 'string' } } },
          },
        },
      ],
    });
  });

  it('assembles parallel tool calls from indexed fragments split across many chunks', async () => {
    const argsA = JSON.stringify({ path: '/tmp/a very long file name/with spaces.txt', encoding: 'utf8' });
    const argsB = JSON.stringify({ path: 'b.txt' });
    server.enqueue({
      events: openAiEvents(
        [
          { text: 'Reading both.' },
          { toolCall: { id: 'call_a', name: 'read_file', args: argsA } },
          { toolCall: { id: 'call_b', name: 'read_file', args: argsB } },
        ],
        { chunkSize: 3 },
      ),
      splitBytes: 11,
    });
    const result = await collectStream(provider().stream(request()));
    expect(result.error).toBeUndefined();
    expect(result.text).toBe('Reading both.');
    expect(result.events.filter((e) => e.type !== 'text')).toEqual([
      { type: 'tool_call', id: 'call_a', name: 'read_file', args: argsA },
      { type: 'tool_call', id: 'call_b', name: 'read_file', args: argsB },
      {
        type: 'done',
        stopReason: 'tool_calls',
        usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: null, cacheWriteTokens: null },
      },
    ]);
  });

  it('accepts what local servers send: interleaved indexes, repeated names, no id, no [DONE], malformed JSON raw', async () => {
    server.enqueue({
      events: [
        openAiChunk({ role: 'assistant' }),
        openAiChunk({
          tool_calls: [{ index: 0, id: 'call_0', function: { name: 'read_file', arguments: '{"pa' } }],
        }),
        openAiChunk({ tool_calls: [{ index: 1, function: { name: 'list_tasks', arguments: '' } }] }),
        openAiChunk({
          tool_calls: [{ index: 0, function: { name: 'read_file', arguments: 'th": "a.txt"' } }],
        }),
        openAiChunk({}, 'tool_calls'),
      ],
    });
    const result = await collectStream(provider().stream(request()));
    expect(result.error).toBeUndefined();
    const calls = result.events.filter((e) => e.type === 'tool_call');
    expect(calls[0]).toEqual({
      type: 'tool_call',
      id: 'call_0',
      name: 'read_file',
      args: '{"path": "a.txt"',
    });
    expect(calls[1]).toMatchObject({ type: 'tool_call', name: 'list_tasks', args: '{}' });
    expect(calls[1]?.type === 'tool_call' && calls[1].id).toMatch(/^call_\w+/);
    expect(result.events.at(-1)).toEqual({
      type: 'done',
      stopReason: 'tool_calls',
      usage: { inputTokens: null, outputTokens: null, cacheReadTokens: null, cacheWriteTokens: null },
    });
  });

  it('sends no Authorization header to a local server without a key', async () => {
    server.enqueue({ events: openAiEvents([{ text: 'local' }]) });
    const result = await collectStream(provider({ apiKey: null, keyName: null }).stream(request()));
    expect(result.text).toBe('local');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('retries a 429 after its retry-after, and a 500, then succeeds', async () => {
    server.enqueue(
      { status: 429, headers: { 'retry-after': '1' }, body: openAiErrorBody(429, 'Rate limit reached') },
      { status: 500 },
      { events: openAiEvents([{ text: 'ok' }]) },
    );
    const started = Date.now();
    const result = await collectStream(provider().stream(request()));
    expect(result.text).toBe('ok');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(3);
  });

  it('maps 401 and 403 to auth errors naming the key, without retrying', async () => {
    server.enqueue(
      { status: 401, body: openAiErrorBody(401, 'Incorrect API key provided') },
      { status: 403, body: { error: 'forbidden' } },
    );
    const first = await collectStream(provider().stream(request()));
    expect(first.error).toMatchObject({ kind: 'auth', status: 401, keyName: 'OPENAI_API_KEY' });
    expect((first.error as Error).message).toContain('Incorrect API key provided');
    const second = await collectStream(provider().stream(request()));
    expect(second.error).toMatchObject({ kind: 'auth', status: 403 });
    expect(server.requests).toHaveLength(2);
  });

  it('a socket cut mid-stream delivers what came before, then stream_cut', async () => {
    server.enqueue({ events: openAiEvents([{ text: 'abcdefghijklmnop' }], { chunkSize: 4 }), cutAfter: 3 });
    const result = await collectStream(provider().stream(request()));
    expect(result.text).toBe('abcdefgh');
    expect(result.error).toBeInstanceOf(ProviderError);
    expect(result.error).toMatchObject({ kind: 'stream_cut' });
  });

  it('a clean end before finish_reason and [DONE] is stream_cut; an error chunk after output too', async () => {
    server.enqueue({
      events: openAiEvents([{ text: 'half an answ' }], { omitFinish: true, omitDone: true }),
    });
    const ended = await collectStream(provider().stream(request()));
    expect(ended.text).toBe('half an answ');
    expect(ended.error).toMatchObject({ kind: 'stream_cut' });
    server.enqueue({
      events: [
        openAiChunk({ content: 'partial' }),
        { data: { error: { message: 'Provider returned error', code: 502 } } },
      ],
    });
    const errored = await collectStream(provider().stream(request()));
    expect(errored.text).toBe('partial');
    expect(errored.error).toMatchObject({ kind: 'stream_cut', status: 502 });
    expect(server.requests).toHaveLength(2);
  });

  it('cancelling mid-stream stops at once with cancelled', async () => {
    server.enqueue({ events: openAiEvents([{ text: 'first part' }]).slice(0, 3), hang: true });
    const controller = new AbortController();
    const seen: string[] = [];
    let error: unknown;
    try {
      for await (const event of provider().stream(request({ signal: controller.signal }))) {
        if (event.type === 'text') seen.push(event.delta);
        controller.abort();
      }
    } catch (caught) {
      error = caught;
    }
    expect(seen).toEqual(['first pa']);
    expect(error).toMatchObject({ kind: 'cancelled' });
    await expect.poll(() => server.clientAborts()).toBe(1);
  });

  it('says so when the base URL answers with JSON instead of an event stream', async () => {
    server.enqueue({ status: 200, events: [], headers: { 'content-type': 'application/json' } });
    const result = await collectStream(provider().stream(request()));
    expect(result.error).toMatchObject({ kind: 'bad_request' });
    expect((result.error as Error).message).toContain('check the base URL');
  });
});

describe('prompt_cache_key', () => {
  it('sends the chat’s key; a server that refuses it gets the request again without it, and never again', async () => {
    server.enqueue(
      { events: openAiEvents([{ text: 'keyed' }]) },
      { status: 400, body: openAiErrorBody(400, 'Unrecognized request argument supplied: prompt_cache_key') },
      { events: openAiEvents([{ text: 'unkeyed' }]) },
      { events: openAiEvents([{ text: 'still unkeyed' }]) },
    );
    const first = await collectStream(provider().stream(request({ cacheKey: 'agenvoy-abc' })));
    expect(first.text).toBe('keyed');
    expect(server.requests[0]?.body.prompt_cache_key).toBe('agenvoy-abc');
    // Another server on the same address now refuses it: one retry without, then remembered.
    const second = await collectStream(provider().stream(request({ cacheKey: 'agenvoy-abc' })));
    expect(second).toMatchObject({ text: 'unkeyed', error: undefined });
    expect(server.requests[1]?.body.prompt_cache_key).toBe('agenvoy-abc');
    expect(server.requests[2]?.body).not.toHaveProperty('prompt_cache_key');
    await collectStream(provider().stream(request({ cacheKey: 'agenvoy-abc' })));
    expect(server.requests[3]?.body).not.toHaveProperty('prompt_cache_key');
  });

  it('sends none without a key, and another 400 is not retried', async () => {
    server.enqueue({ status: 400, body: openAiErrorBody(400, 'model not found') });
    const result = await collectStream(provider().stream(request()));
    expect(result.error).toBeInstanceOf(ProviderError);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).not.toHaveProperty('prompt_cache_key');
  });
});
