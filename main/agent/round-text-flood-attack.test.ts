// A model server that streams text without end, fast (docs/robustness.md, "A provider stream always ends"): each
// event is small and bytes never stop, so neither the event cap nor the idle wait ends it. Unbounded, the round held
// every character, each 250 ms checkpoint wrote all of it to SQLite again, and at ~800 MB the save threw "string or
// blob too big" out of the turn after four minutes of work; tool calls each within their own limit added up the same
// way. The round now ends as too large at MAX_ROUND_TEXT_CHARS, keeping what streamed and running none of its calls.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAiChunk } from './providers/testing/openai-test-server';
import { formatFrame } from './providers/testing/scripted-server';
import { MAX_ROUND_TEXT_CHARS } from './stream-round';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture } from './testing/chat-fixture';

let fixture: ChatFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const DELTA = 64 * 1024;

describe('a server streaming text without end', () => {
  for (const field of ['content', 'reasoning_content'] as const) {
    it(`${field}: the round stops at the bound, keeps what streamed, and the next turn works`, async () => {
      fixture = await chatFixture();
      const { server, service, store } = fixture;
      const chat = service.createChat({ workspace: fixture.workspace });
      const frame = formatFrame(openAiChunk({ [field]: 'x'.repeat(DELTA) }));
      const frames = Math.ceil((MAX_ROUND_TEXT_CHARS * 1.5) / DELTA);
      let sent = 0;
      server.enqueue({
        *raw() {
          for (; sent < frames; sent++) yield frame;
          yield formatFrame(openAiChunk({}, 'stop'));
          yield 'data: [DONE]\n\n';
        },
      });
      const result = await service.send(chat.id, 'go');
      expect(result).toMatchObject({
        status: 'failed',
        error: expect.stringContaining('characters of text, reasoning and tool-call arguments'),
      });
      expect(sent).toBeLessThan(frames);
      const saved = store.messages.list(chat.id).filter((m) => m.message.role === 'assistant');
      const kept = saved.flatMap((m) =>
        m.message.role === 'assistant' ? m.message.content.map((p) => ('text' in p ? p.text.length : 0)) : [],
      );
      expect(kept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(MAX_ROUND_TEXT_CHARS);
      expect(kept.reduce((a, b) => a + b, 0)).toBeGreaterThan(MAX_ROUND_TEXT_CHARS - DELTA);
      server.enqueue({
        events: [openAiChunk({ content: 'fine' }), openAiChunk({}, 'stop'), { data: '[DONE]' }],
      });
      expect(await service.send(chat.id, 'again')).toMatchObject({ status: 'completed' });
    }, 60_000);
  }

  it('tool calls: many calls each within the argument limit end the round at the same bound', async () => {
    fixture = await chatFixture();
    const { server, service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    // Each call is within limits.toolArgumentsBytes (1 MiB) and saved at once when it completes: unbounded, 1,000 of
    // them held a GB and wrote the growing whole a thousand times.
    const args = JSON.stringify({ path: 'f.txt', content: 'y'.repeat(1024 * 1024 - 64) });
    const count = Math.ceil((MAX_ROUND_TEXT_CHARS * 1.5) / args.length);
    server.enqueue({
      *raw() {
        yield formatFrame(openAiChunk({ role: 'assistant', content: '' }));
        for (let sent = 0; sent < count; sent++) {
          const start = {
            index: sent,
            id: `call_${sent}`,
            type: 'function',
            function: { name: 'write_file', arguments: '' },
          };
          yield formatFrame(openAiChunk({ tool_calls: [start] }));
          yield formatFrame(openAiChunk({ tool_calls: [{ index: sent, function: { arguments: args } }] }));
        }
        yield formatFrame(openAiChunk({}, 'tool_calls'));
        yield 'data: [DONE]\n\n';
      },
    });
    const result = await service.send(chat.id, 'go');
    expect(result).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('tool-call arguments'),
    });
    // The calls of a stopped round are dropped, never run.
    expect(fs.existsSync(path.join(fixture.workspace, 'f.txt'))).toBe(false);
  }, 60_000);
});
