// A model server that puts the bulk in tool-call names (docs/robustness.md, "A provider stream always ends"): the
// round's bound on characters counted text, reasoning and arguments, never names, and a name may be as long as one
// event (8 MiB). Ten calls named with 4 MiB each were 40 MB held, saved at each call, sent back in every later
// request and echoed whole in each "unknown tool" answer. Names now count toward MAX_ROUND_TEXT_CHARS like
// arguments, in the decoder while the calls are open and in the round once they are complete.
import { afterEach, describe, expect, it } from 'vitest';
import { openAiChunk } from './providers/testing/openai-test-server';
import { formatFrame } from './providers/testing/scripted-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture } from './testing/chat-fixture';

let fixture: ChatFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const NAME = 'n'.repeat(4 * 1024 * 1024);

describe('tool calls with huge names', () => {
  for (const finishEach of [false, true]) {
    it(`end the round at the bound on characters (${finishEach ? 'text between the calls' : 'calls only'})`, async () => {
      fixture = await chatFixture();
      const { server, service, store } = fixture;
      const chat = service.createChat({ workspace: fixture.workspace });
      server.enqueue({
        *raw() {
          for (let i = 0; i < 10; i++) {
            // OpenAI-compatible servers may send each call whole; index apart, so each is its own call.
            const call = {
              index: i,
              id: `c${i}`,
              type: 'function',
              function: { name: NAME, arguments: '{}' },
            };
            yield formatFrame(openAiChunk({ tool_calls: [call] }));
            if (finishEach && i < 9) yield formatFrame(openAiChunk({ content: '.' }));
          }
          yield formatFrame(openAiChunk({}, 'tool_calls'));
          yield 'data: [DONE]\n\n';
        },
      });
      const result = await service.send(chat.id, 'go');
      expect(result).toMatchObject({
        status: 'failed',
        error: expect.stringContaining('characters of text, reasoning and tool-call arguments'),
      });
      // Nothing of the calls was kept, and no second request carried them back.
      const saved = JSON.stringify(store.messages.list(chat.id));
      expect(saved.length).toBeLessThan(1024 * 1024);
      expect(server.requests).toHaveLength(1);
    }, 60_000);
  }

  it('Anthropic, each call complete before the next: the round counts the names', async () => {
    fixture = await chatFixture({ wire: 'anthropic' });
    const { server, service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    const frame = (data: { type: string } & Record<string, unknown>) =>
      formatFrame({ event: data.type, data });
    server.enqueue({
      *raw() {
        yield frame({
          type: 'message_start',
          message: { id: 'm', type: 'message', role: 'assistant', content: [], usage: {} },
        });
        for (let index = 0; index < 10; index++) {
          const block = { type: 'tool_use', id: `t${index}`, name: NAME, input: {} };
          yield frame({ type: 'content_block_start', index, content_block: block });
          yield frame({ type: 'content_block_stop', index });
        }
        yield frame({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: {} });
        yield frame({ type: 'message_stop' });
      },
    });
    const result = await service.send(chat.id, 'go');
    expect(result).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('characters of text, reasoning and tool-call arguments'),
    });
    expect(server.requests).toHaveLength(1);
  }, 60_000);
});
