// The zod schemas of streamed chunks (openai-chunk-schema.ts, anthropic-event-schema.ts) as the decoders use them:
// lenient where servers add or leave out fields, and a chunk that does not fit is a `server` ProviderError naming
// the event and the field.
import { describe, expect, it } from 'vitest';
import { AnthropicStreamDecoder } from './anthropic-events';
import { OpenAiStreamDecoder } from './openai-chunks';
import { ProviderError } from './provider';

const openAi = (data: unknown, decoder = new OpenAiStreamDecoder()) =>
  decoder.push({ event: 'message', data: typeof data === 'string' ? data : JSON.stringify(data) });
const anthropic = (data: unknown, decoder = new AnthropicStreamDecoder()) =>
  decoder.push({
    event: (data as { type?: string }).type ?? 'message',
    data: typeof data === 'string' ? data : JSON.stringify(data),
  });

function failure(run: () => unknown): ProviderError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error('expected a ProviderError');
}

describe('OpenAI-compatible chunks', () => {
  it('accepts extra fields and nulls where servers send them', () => {
    const decoder = new OpenAiStreamDecoder();
    expect(
      openAi(
        {
          id: 'c',
          object: 'chat.completion.chunk',
          system_fingerprint: null,
          choices: [
            {
              index: 0,
              delta: { role: 'assistant', content: 'hi', reasoning: 'x' },
              logprobs: null,
              finish_reason: null,
            },
          ],
          usage: null,
          error: null,
        },
        decoder,
      ),
    ).toEqual([
      // OpenRouter's `reasoning` field is reasoning (one block per response, closed at the finish).
      { type: 'reasoning', delta: 'x' },
      { type: 'text', delta: 'hi' },
    ]);
    expect(openAi({ choices: [], usage: { prompt_tokens: 3, completion_tokens: null } }, decoder)).toEqual(
      [],
    );
    expect(
      openAi(
        {
          choices: [
            {
              delta: {
                content: null,
                tool_calls: [
                  { index: 0, id: null, type: 'function', function: { name: 'f', arguments: '{}' } },
                ],
              },
              finish_reason: 'tool_calls',
            },
          ],
        },
        decoder,
      ),
    ).toMatchObject([
      { type: 'reasoning_end', part: { type: 'reasoning', text: 'x', field: 'reasoning' } },
      { type: 'tool_call', name: 'f', args: '{}' },
    ]);
    expect(openAi('[DONE]', decoder)).toMatchObject([{ type: 'done', usage: { inputTokens: 3 } }]);
  });

  it('names the field of a chunk that does not fit', () => {
    const bad = failure(() => openAi({ choices: [{ delta: { content: 5 } }] }));
    expect(bad).toMatchObject({ kind: 'server' });
    expect(bad.message).toBe(
      'OpenAI-compatible server sent a chunk (event "message") that does not fit the Chat Completions stream: ' +
        'at "choices[0].delta.content": expected string, received number',
    );
    expect(failure(() => openAi({ choices: [{ delta: { tool_calls: [{ index: '0' }] } }] })).message).toMatch(
      /at "choices\[0\]\.delta\.tool_calls\[0\]\.index": expected number, received string$/,
    );
    expect(failure(() => openAi({ error: { message: { text: 'x' } } })).message).toMatch(
      /at "error\.message": expected string, received object$/,
    );
    expect(failure(() => openAi({ error: 7 })).message).toMatch(/at "error": expected string or object$/);
    expect(failure(() => openAi([1, 2])).message).toMatch(/stream: expected object, received array$/);
    expect(failure(() => openAi('{nope')).message).toBe(
      'OpenAI-compatible server sent a chunk that is not valid JSON: {nope',
    );
  });

  it('still turns an error chunk into its kind and status', () => {
    expect(failure(() => openAi({ error: { message: 'Provider returned error', code: 502 } }))).toMatchObject(
      {
        kind: 'server',
        status: 502,
        message: 'OpenAI-compatible server: Provider returned error',
      },
    );
    expect(failure(() => openAi({ error: { type: 'rate_limit_exceeded', code: null } }))).toMatchObject({
      kind: 'rate_limit',
    });
    expect(failure(() => openAi({ error: 'model not found' })).message).toBe(
      'OpenAI-compatible server: model not found',
    );
  });
});

describe('Anthropic events', () => {
  it('skips ping and event types newer than this client, and accepts extra fields and null counts', () => {
    const decoder = new AnthropicStreamDecoder();
    expect(anthropic({ type: 'ping' }, decoder)).toEqual([]);
    expect(anthropic({ type: 'brand_new_event', whatever: [1] }, decoder)).toEqual([]);
    anthropic(
      {
        type: 'message_start',
        message: {
          id: 'm',
          usage: { input_tokens: 4, cache_creation_input_tokens: null, cache_read_input_tokens: 2 },
        },
      },
      decoder,
    );
    expect(
      anthropic(
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 'a', citations: [] } },
        decoder,
      ),
    ).toEqual([
      // message_start's counts, ahead of the first output.
      {
        type: 'usage',
        usage: { inputTokens: 4, outputTokens: null, cacheReadTokens: 2, cacheWriteTokens: null },
      },
      { type: 'text', delta: 'a' },
    ]);
    expect(
      anthropic(
        { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 't' } },
        decoder,
      ),
    ).toEqual([]);
    anthropic({ type: 'content_block_stop', index: 0 }, decoder);
    anthropic(
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 9 },
      },
      decoder,
    );
    expect(anthropic({ type: 'message_stop' }, decoder)).toEqual([
      {
        type: 'done',
        stopReason: 'end_turn',
        // input_tokens is the uncached input; a null count is unknown, not 0.
        usage: { inputTokens: 4, outputTokens: 9, cacheReadTokens: 2, cacheWriteTokens: null },
      },
    ]);
  });

  it('names the event type and the field of an event that does not fit', () => {
    const bad = failure(() =>
      anthropic({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 7 } }),
    );
    expect(bad).toMatchObject({ kind: 'server' });
    expect(bad.message).toBe(
      'Anthropic sent a content_block_delta event that does not fit the Messages stream: ' +
        'at "delta.text": expected string, received number',
    );
    expect(
      failure(() => anthropic({ type: 'content_block_start', index: '0', content_block: { type: 'text' } }))
        .message,
    ).toMatch(/a content_block_start event .*: at "index": expected number, received string$/);
    expect(
      failure(() => anthropic({ type: 'message_delta', usage: { output_tokens: '5' } })).message,
    ).toMatch(/a message_delta event .*: at "usage\.output_tokens": expected number, received string$/);
    expect(failure(() => anthropic({ typ: 'x' })).message).toBe(
      'Anthropic sent an event ("message") without a "type": at "type": expected string, received undefined',
    );
    expect(failure(() => anthropic('not json')).message).toBe(
      'Anthropic sent an event that is not valid JSON: not json',
    );
  });

  it('still turns an error event into its kind', () => {
    expect(
      failure(() => anthropic({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } })),
    ).toMatchObject({ kind: 'rate_limit', message: 'Anthropic: rate_limit_error: slow down' });
    expect(failure(() => anthropic({ type: 'error' }))).toMatchObject({
      kind: 'server',
      message: 'Anthropic: api_error: error event in the stream',
    });
  });
});
