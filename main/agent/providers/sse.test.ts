import { describe, expect, it } from 'vitest';
import { parseSse, SseEventTooLarge, SseParser } from './sse';

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

  it('caps one event in UTF-8 bytes: its unfinished line and its data lines count, other events do not', () => {
    const parser = new SseParser({ maxEventBytes: 100 });
    // Many events, each under the cap, pass however much they add up to.
    expect(parser.push(`data: ${'a'.repeat(80)}\n\n`.repeat(50))).toHaveLength(50);
    // 66 characters but 126 bytes: the cap is in bytes.
    expect(() => parser.push(`data: ${'é'.repeat(60)}`)).toThrow(SseEventTooLarge);
    // Once failed, it stays failed.
    expect(() => parser.push('\n\n')).toThrow(SseEventTooLarge);
    const lines = new SseParser({ maxEventBytes: 100 });
    expect(lines.push('data: 1234567890\n'.repeat(5))).toEqual([]);
    expect(() => lines.push('data: 1234567890\n'.repeat(2))).toThrow(/larger than 100 bytes/);
  });

  it('hands out the events completed before an overflow, then fails', () => {
    const parser = new SseParser({ maxEventBytes: 50 });
    expect(parser.push(`data: ok\n\ndata: ${'x'.repeat(100)}`)).toEqual([{ event: 'message', data: 'ok' }]);
    expect(() => parser.end()).toThrow(SseEventTooLarge);
  });

  it('keeps a long line split into thousands of chunks linear, and a CR ending a chunk pairs with the next LF', () => {
    const parser = new SseParser();
    const started = Date.now();
    for (let i = 0; i < 4000; i++) expect(parser.push(i === 0 ? 'data: ' : 'x'.repeat(1000))).toEqual([]);
    expect(parser.push('\r')).toEqual([]);
    const [message] = parser.push('\n\r\n');
    expect(message?.data).toHaveLength(3999 * 1000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(parser.push('data: a\r')).toEqual([]);
    expect(parser.push('\r')).toEqual([{ event: 'message', data: 'a' }]);
  });
});
