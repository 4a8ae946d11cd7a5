// A hostile or broken model server, through the real chat stack (docs/robustness.md, "A provider stream always
// ends"; docs/agent-loop.md, "Reasoning", "Usage and cost"): what it streams cannot make the round's work grow
// without bound, a secret it echoes into an error is not shown in pieces, what it billed before a cut is kept, and a
// crash mid-thinking never leaves a scrubbed block that claims its signature.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor } from '../core/redactor';
import { openChatStore } from '../store';
import { MAX_REQUEST_IMAGES, withinImageBudget } from './image-budget';
import { anthropicEvents } from './providers/testing/anthropic-test-server';
import { openAiChunk } from './providers/testing/openai-test-server';
import type { SseFrame } from './providers/testing/scripted-server';
import { storePersistence } from './store-persistence';
import { MAX_ROUND_PARTS } from './stream-round';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture } from './testing/chat-fixture';
import type { TurnEvent } from './turn-events';

let fixture: ChatFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const assistants = (f: ChatFixture, chatId: string) =>
  f.store.messages.list(chatId).filter((m) => m.message.role === 'assistant');

describe('a stream of many small pieces', () => {
  it('OpenAI-compatible: 5,000 switches between reasoning and answer make two parts, not 10,000', async () => {
    fixture = await chatFixture();
    const { server, service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    const frames: SseFrame[] = [];
    for (let i = 0; i < 5000; i++)
      frames.push(openAiChunk({ reasoning_content: 'r' }), openAiChunk({ content: 'a' }));
    frames.push(openAiChunk({}, 'stop'), { data: '[DONE]' });
    server.enqueue({ events: frames });
    const result = await service.send(chat.id, 'go');
    expect(result.status).toBe('completed');
    const [message] = assistants(fixture, chat.id);
    expect(message?.message).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'r'.repeat(5000), field: 'reasoning_content' },
        { type: 'text', text: 'a'.repeat(5000) },
      ],
    });
  });

  it('Anthropic: past the bound on parts the round ends as too large, keeping what streamed', async () => {
    fixture = await chatFixture({ wire: 'anthropic' });
    const { server, service } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    const blocks = Array.from({ length: MAX_ROUND_PARTS + 200 }, (_, i) =>
      i % 2 === 0 ? { thinking: 't', signature: `s${i}` } : { text: 'x' },
    );
    server.enqueue({ events: anthropicEvents(blocks) });
    const result = await service.send(chat.id, 'go');
    expect(result).toMatchObject({
      status: 'failed',
      error: expect.stringContaining(`more than ${MAX_ROUND_PARTS} parts`),
    });
    const [message] = assistants(fixture, chat.id);
    expect(message?.message.role === 'assistant' && message.message.content.length).toBe(MAX_ROUND_PARTS);
  });
});

describe('a secret a server echoes into a refusal', () => {
  it('is scrubbed before the notice is shortened, so no piece of it is shown', async () => {
    const SECRET = 'sk-live-CANARY-4400-0123456789abcdefghijklmnopqrstuvwxyz';
    fixture = await chatFixture({ wire: 'anthropic' });
    const { server, service, core, store } = fixture;
    core.redactor.add('ANTHROPIC_API_KEY', SECRET);
    const events: TurnEvent[] = [];
    service.on((event) => events.push(event));
    const chat = service.createChat({ workspace: fixture.workspace });
    store.chats.setReasoning(chat.id, 'low');
    // The key over and over, so every cut a notice could make (the server's words are long) falls inside a copy.
    const message = `thinking: Extra inputs are not permitted. ${SECRET.repeat(16)} end`;
    server.enqueue(
      { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message } } },
      { events: anthropicEvents([{ text: 'Fine.' }]) },
    );
    await service.send(chat.id, 'go');
    const notice = events.find((e) => e.type === 'notice');
    expect(notice?.type === 'notice' && notice.message).toContain('refused extended thinking');
    const said = JSON.stringify(events);
    for (let i = 0; i + 8 <= SECRET.length; i++) expect(said).not.toContain(SECRET.slice(i, i + 8));
  });
});

describe('usage a server reported before a cut', () => {
  it('Anthropic: the input message_start billed is kept for a round cut mid-answer', async () => {
    fixture = await chatFixture({ wire: 'anthropic' });
    const { server, service, store } = fixture;
    const chat = service.createChat({ workspace: fixture.workspace });
    const frames = anthropicEvents([{ text: 'a long answer that is cut' }], {
      usage: { input: 321, output: 9 },
    });
    server.enqueue({ events: frames, cutAfter: 5 });
    expect((await service.send(chat.id, 'go')).status).toBe('failed');
    expect(store.usage.list(chat.id)[0]?.usage).toEqual({
      inputTokens: 321,
      outputTokens: 1,
      cacheReadTokens: null,
      cacheWriteTokens: null,
    });
  });
});

describe('a crash while thinking streams', () => {
  it('a checkpoint of scrubbed thinking never keeps the signature', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-scrub-'));
    const store = openChatStore(path.join(dir, 'agenvoy.db'));
    try {
      const redactor = new Redactor();
      redactor.add('TOKEN', 'CANARY-9090-MIDSTREAM');
      const persistence = storePersistence(store, redactor);
      const chat = store.chats.create({ title: 't', workspace: dir });
      const id = persistence.beginAssistant(chat.id);
      persistence.checkpointAssistant(
        id,
        [
          { type: 'reasoning', text: 'The token is CANARY-9090-MIDSTREAM.', signature: 'sig-1' },
          { type: 'reasoning', text: 'Clean.', signature: 'sig-2' },
        ],
        true,
      );
      // The app dies here: the row stays as checkpointed, then start-up marks it interrupted.
      expect(store.messages.get(id)?.message).toEqual({
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'The token is [redacted:TOKEN].' },
          { type: 'reasoning', text: 'Clean.', signature: 'sig-2' },
        ],
      });
    } finally {
      store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the images one request carries', () => {
  it('the newest 20 go; older ones are named as left out, in user messages and tool results alike', () => {
    const image = (n: number) => ({ type: 'image' as const, mimeType: 'image/png', data: `IMG${n}` });
    const messages = withinImageBudget([
      { role: 'user', content: [{ type: 'text', text: 'old' }, image(0), image(1)] },
      {
        role: 'tool_results',
        results: [{ callId: 'c', name: 'shot', isError: false, content: [image(2), image(3)] }],
      },
      { role: 'user', content: Array.from({ length: MAX_REQUEST_IMAGES - 1 }, (_, i) => image(4 + i)) },
    ]);
    const kept = JSON.stringify(messages).match(/IMG\d+/g) ?? [];
    expect(kept).toHaveLength(MAX_REQUEST_IMAGES);
    expect(kept).not.toContain('IMG0');
    expect(kept).not.toContain('IMG1');
    expect(kept).not.toContain('IMG2');
    expect(kept).toContain('IMG3');
    expect(messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'old' },
        { type: 'text', text: expect.stringContaining('an earlier image (image/png) was left out') },
        { type: 'text', text: expect.stringContaining('was left out') },
      ],
    });
  });

  it('a budget of base64 characters: two 16 MB messages of images never go in one request', () => {
    const big = (tag: string) => ({
      type: 'image' as const,
      mimeType: 'image/png',
      data: tag.repeat(5_000_000),
    });
    const messages = withinImageBudget([
      { role: 'user', content: [big('a'), big('b'), big('c'), big('d')] },
      { role: 'user', content: [big('e'), big('f'), big('g'), big('h')] },
    ]);
    const size = JSON.stringify(messages).length;
    expect(size).toBeLessThan(25 * 1024 * 1024);
    // The newest message's images all went.
    expect(messages[1]).toEqual({ role: 'user', content: [big('e'), big('f'), big('g'), big('h')] });
  });
});
