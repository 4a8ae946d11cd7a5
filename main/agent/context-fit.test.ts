// Tool outputs, each within its 1 MiB cap, that fill the model's context (docs/agent-loop.md, "A chat longer than the
// model's context"): a hostile MCP server or page sends the most it may at every call, and from then on the server
// refused every request of the chat as too long, for good, since the history keeps every output. A real OpenAI-compatible
// provider against a scripted server that refuses as OpenAI does; the request now goes again with older outputs left
// out, newest kept first, and the model's fitted size is kept for the next requests.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContentPart } from '../../tools/sdk/types';
import type { TranscriptMessage } from '../store/transcript';
import { MAX_FITS, streamFitted, toolOutputChars, withinToolOutputBudget } from './context-fit';
import { OpenAiProvider } from './providers/openai';
import type { ModelRequest, StreamEvent } from './providers/provider';
import { openAiEvents, startOpenAiTestServer } from './providers/testing/openai-test-server';
import type { ScriptedServer } from './providers/testing/scripted-server';

let server: ScriptedServer;
beforeEach(async () => {
  server = await startOpenAiTestServer();
});
afterEach(async () => {
  await server.close();
});

const OVERFLOW = {
  status: 400,
  body: {
    error: {
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 390000 tokens.",
      type: 'invalid_request_error',
      code: 'context_length_exceeded',
    },
  },
};

// Three rounds of calls, each answered with `chars` characters of one letter per output.
function history(chars: number): TranscriptMessage[] {
  const messages: TranscriptMessage[] = [
    { role: 'user', content: [{ type: 'text', text: 'read them all' }] },
  ];
  for (const [n, letter] of ['Q', 'X', 'Z'].entries()) {
    const id = `call_${n}`;
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_call', id, name: 'fetch_page', args: '{}' }],
    });
    messages.push({
      role: 'tool_results',
      results: [
        {
          callId: id,
          name: 'fetch_page',
          content: [{ type: 'text', text: letter.repeat(chars) }],
          isError: false,
        },
      ],
    });
  }
  return messages;
}

const request = (messages: TranscriptMessage[]): ModelRequest => ({
  model: 'm',
  system: 's',
  messages,
  tools: [],
});

async function collect(
  stream: AsyncIterable<StreamEvent>,
): Promise<{ events: StreamEvent[]; error?: Error }> {
  const events: StreamEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events };
  } catch (error) {
    return { events, error: error as Error };
  }
}

// The characters of tool output the server received in its n-th request, per letter (none in the notes).
function outputsSent(n: number): Record<string, number> {
  const sent: Record<string, number> = {};
  for (const message of server.requests[n]?.body.messages as Array<{ role: string; content: unknown }>) {
    if (message.role !== 'tool' || typeof message.content !== 'string') continue;
    for (const letter of ['Q', 'X', 'Z']) {
      const count = message.content.split(letter).length - 1;
      if (count > 0) sent[letter] = count;
    }
  }
  return sent;
}

const provider = () =>
  new OpenAiProvider({ baseUrl: server.baseUrl, apiKey: null, retry: { baseDelayMs: 1 } });

describe('tool outputs that fill the model context', () => {
  it('the request goes again with the older outputs left out, newest first, and the answer comes', async () => {
    server.enqueue(OVERFLOW, OVERFLOW, { events: openAiEvents([{ text: 'done' }]) });
    const openai = provider();
    const { events, error } = await collect(streamFitted(openai, request(history(300_000))));
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta)).toEqual([
      'done',
    ]);
    // Told once, with the server's reason.
    const told = events.filter((e) => e.type === 'feature_dropped');
    expect(told).toHaveLength(1);
    expect((told[0] as { message: string }).message).toContain('maximum context length');
    expect(server.requests).toHaveLength(3);
    expect(outputsSent(0)).toEqual({ Q: 300_000, X: 300_000, Z: 300_000 });
    // Half of 900,000: the newest whole, the one before cut to what was left, the oldest left out.
    expect(outputsSent(1)).toEqual({ X: 150_000, Z: 300_000 });
    // Half again of what was sent (the notes' few hundred characters count too).
    const third = outputsSent(2);
    expect(Object.keys(third)).toEqual(['Z']);
    expect(third.Z).toBeGreaterThanOrEqual(225_000);
    expect(third.Z).toBeLessThan(225_500);
    expect(JSON.stringify(server.requests[2]?.body)).toContain('was left out of this request');
    // The next request of the same model fits at once: nothing refused, nothing told.
    server.enqueue({ events: openAiEvents([{ text: 'again' }]) });
    const next = await collect(streamFitted(openai, request(history(300_000))));
    expect(next.error).toBeUndefined();
    expect(next.events.some((e) => e.type === 'feature_dropped')).toBe(false);
    expect(outputsSent(3)).toEqual(third);
  });

  it('a refusal that stands says so in words; another 400 is not sent again', async () => {
    server.enqueue(...Array<typeof OVERFLOW>(MAX_FITS + 1).fill(OVERFLOW));
    const { error } = await collect(streamFitted(provider(), request(history(300_000))));
    expect(error?.message).toMatch(/maximum context length.*this chat is longer than the model's context/);
    expect(server.requests).toHaveLength(MAX_FITS + 1);

    server.enqueue(OVERFLOW);
    const empty = await collect(streamFitted(provider(), request([history(1)[0]!])));
    expect(empty.error?.message).toContain('even with every older tool output left out');
    expect(server.requests).toHaveLength(MAX_FITS + 2);

    server.enqueue({ status: 400, body: { error: { message: 'Invalid value for temperature' } } });
    const other = await collect(streamFitted(provider(), request(history(300_000))));
    expect(other.error?.message).toContain('Invalid value for temperature');
    expect(server.requests).toHaveLength(MAX_FITS + 3);
  });
});

describe('withinToolOutputBudget', () => {
  it('keeps images and the order of results, and never grows the text', () => {
    const image: ContentPart = { type: 'image', mimeType: 'image/png', data: 'AAAA' };
    const messages: TranscriptMessage[] = [
      {
        role: 'tool_results',
        results: [
          {
            callId: '1',
            name: 't',
            content: [{ type: 'text', text: 'x'.repeat(5000) }, image],
            isError: false,
          },
          { callId: '2', name: 't', content: [{ type: 'text', text: 'y'.repeat(5000) }], isError: false },
        ],
      },
    ];
    const fitted = withinToolOutputBudget(messages, 7000);
    const results = (fitted[0] as Extract<TranscriptMessage, { role: 'tool_results' }>).results;
    expect(results.map((r) => r.callId)).toEqual(['1', '2']);
    expect(results[1]?.content).toEqual([{ type: 'text', text: 'y'.repeat(5000) }]);
    expect(results[0]?.content[0]).toEqual({ type: 'text', text: 'x'.repeat(2000) });
    expect(results[0]?.content).toContainEqual(image);
    expect(toolOutputChars(fitted)).toBeLessThan(toolOutputChars(messages));
    // The history given is not changed.
    expect(toolOutputChars(messages)).toBe(10_000);
  });
});
