import { describe, expect, it } from 'vitest';
import { parseSse, SseParser } from './sse';

async function* bytes(...chunks: Array<string | Uint8Array>): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
}

async function all(chunks: AsyncIterable<Uint8Array>) {
  const out = [];
  for await (const message of parseSse(chunks)) out.push(message);
  return out;
}

describe('parseSse', () => {
  it('reads event names, joins multi-line data, skips comments and events without data', async () => {
    const messages = await all(
      bytes(
        ': keep-alive\n\nevent: ping\n\nevent: message_start\ndata: {"a":1}\n\ndata: line 1\ndata:line 2\nid: 7\n\n',
      ),
    );
    expect(messages).toEqual([
      { event: 'message_start', data: '{"a":1}' },
      { event: 'message', data: 'line 1\nline 2', id: '7' },
    ]);
  });

  it('survives every split point: bytes, CRLF pairs and multi-byte characters cut between chunks', async () => {
    const text = 'event: a\r\ndata: héllo 🌍\r\n\r\ndata: [DONE]\r\n\r\n';
    const encoded = new TextEncoder().encode(text);
    for (let cut = 1; cut < encoded.length; cut++) {
      const messages = await all(bytes(encoded.subarray(0, cut), encoded.subarray(cut)));
      expect(messages, `cut at ${cut}`).toEqual([
        { event: 'a', data: 'héllo 🌍' },
        { event: 'message', data: '[DONE]' },
      ]);
    }
    const oneByteAtATime = [...encoded].map((b) => Uint8Array.of(b));
    expect(await all(bytes(...oneByteAtATime))).toHaveLength(2);
  });

  it('accepts bare CR line ends and strips a leading BOM', async () => {
    expect(await all(bytes('\uFEFFdata: x\r\rdata: y\r\r'))).toEqual([
      { event: 'message', data: 'x' },
      { event: 'message', data: 'y' },
    ]);
  });

  it('drops an event whose closing blank line never came (a cut fragment)', async () => {
    expect(await all(bytes('data: whole\n\ndata: {"choi'))).toEqual([{ event: 'message', data: 'whole' }]);
  });

  it('parses a large chunk of many events in one go', () => {
    const parser = new SseParser();
    const text = 'data: {"n":1}\n\n'.repeat(20_000);
    expect(parser.push(text)).toHaveLength(20_000);
    expect(parser.end()).toEqual([]);
  });
});
