// Attachments through browser mode over a real WebSocket, against a real core, store and provider: an image goes to the
// model as an image part and into the workspace, a text file's secret is redacted, a refused file refuses the send
// (nothing copied, no turn), a message at the limits fits in one frame, and a bigger frame is refused in words.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import { ATTACHMENT_LIMITS } from '../agent/attachments-limits';
import { attachmentInput, pngBytes } from '../agent/testing/attachment-samples';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { value, webFixture } from './testing/web-fixture';
import { MAX_FRAME } from './web-server';

const SECRET = 'canary-AttachSecret-91c2e0f4-value';
let fixture: WebFixture;
let client: TestClient;
const folders: string[] = [];

beforeAll(async () => {
  fixture = await webFixture();
  client = await fixture.connect();
  fixture.host.core.redactor.add('ATTACH_CANARY', SECRET);
});
afterAll(async () => {
  await fixture?.close();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

// Each chat works in a folder of its own, so each test sees only its own attachments.
async function newChat(title: string): Promise<{ id: string; workspace: string }> {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-web-attach-'));
  folders.push(workspace);
  return value(await client.bridge.api.invoke('chats.create', { title, workspace }));
}

describe('attachments in browser mode', () => {
  it('sends a dropped image to the model as an image part and a text file as text, copies both, and shows them on the message', async () => {
    const chat = await newChat('attach');
    const png = pngBytes(8, 6);
    fixture.provider.enqueue({ events: openAiEvents([{ text: 'A small gray image.' }]) });
    const before = fixture.provider.requests.length;
    value(
      await client.bridge.api.invoke('turn.send', {
        chatId: chat.id,
        text: 'what is this?',
        attachments: [
          attachmentInput('gray.png', 'image/png', png),
          attachmentInput('keys.env', 'text/plain', `TOKEN=${SECRET}\n`),
        ],
      }),
    );
    const finished = await client.chatEvent('turn.finished', (e) => e.chatId === chat.id);
    expect(finished.status).toBe('completed');
    const body = fixture.provider.requests[before]?.body;
    const user = body.messages.find((m: { role: string }) => m.role === 'user');
    expect(user.content).toEqual([
      { type: 'text', text: 'what is this?' },
      {
        type: 'text',
        text:
          'Attachment "gray.png" (image/png, ' +
          `${png.length} bytes, 8×6 px) is saved in the workspace as "attachments/gray.png"; the image follows.`,
      },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
      {
        type: 'text',
        text: 'Attachment "keys.env" (text/plain, 41 bytes) is saved in the workspace as "attachments/keys.env"; its text follows.',
      },
      { type: 'text', text: 'TOKEN=[redacted:ATTACH_CANARY]\n' },
    ]);
    expect(JSON.stringify(body)).not.toContain(SECRET);
    // The copies are the person's own files, byte for byte.
    expect(fs.readFileSync(path.join(chat.workspace, 'attachments', 'gray.png'))).toEqual(png);
    expect(fs.readFileSync(path.join(chat.workspace, 'attachments', 'keys.env'), 'utf8')).toBe(
      `TOKEN=${SECRET}\n`,
    );
    const snapshot = value(await client.bridge.api.invoke('chats.open', { chatId: chat.id }));
    expect(snapshot.messages[0]).toMatchObject({
      kind: 'user',
      text: 'what is this?',
      attachments: [
        { name: 'gray.png', mimeType: 'image/png', path: 'attachments/gray.png' },
        { name: 'keys.env', mimeType: 'text/plain', path: 'attachments/keys.env' },
      ],
    });
  });

  it('sends files without text, and titles a new chat from the first file', async () => {
    const chat = await newChat('New chat');
    fixture.provider.enqueue({ events: openAiEvents([{ text: 'Got it.' }]) });
    value(
      await client.bridge.api.invoke('turn.send', {
        chatId: chat.id,
        text: '',
        attachments: [attachmentInput('plan.md', 'text/markdown', '# Plan\n')],
      }),
    );
    await client.chatEvent('turn.finished', (e) => e.chatId === chat.id);
    const list = value(await client.bridge.api.invoke('chats.list', {}));
    expect(list.find((c) => c.id === chat.id)?.title).toBe('plan.md');
  });

  it('refuses the send for a refused file, in words: nothing copied, no turn, no message', async () => {
    const chat = await newChat('refused');
    const requests = fixture.provider.requests.length;
    const result = await client.bridge.api.invoke('turn.send', {
      chatId: chat.id,
      text: 'read this',
      attachments: [
        attachmentInput('ok.txt', 'text/plain', 'fine'),
        attachmentInput('huge.log', 'text/plain', 'x'.repeat(ATTACHMENT_LIMITS.textBytes + 10)),
      ],
    });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'attachment_refused',
        message: expect.stringMatching(
          /^"huge\.log" is 512\.01 KB of text; a text file may be at most 512 KB/,
        ),
      },
    });
    expect(fs.existsSync(path.join(chat.workspace, 'attachments'))).toBe(false);
    expect(fixture.provider.requests.length).toBe(requests);
    const snapshot = value(await client.bridge.api.invoke('chats.open', { chatId: chat.id }));
    expect(snapshot.messages).toEqual([]);
    expect(snapshot.chat.running).toBe(false);
  });

  it('refuses a send whose attachments folder is a symlink, in words', async () => {
    const chat = await newChat('symlinked');
    fs.symlinkSync(fixture.home, path.join(chat.workspace, 'attachments'));
    const result = await client.bridge.api.invoke('turn.send', {
      chatId: chat.id,
      text: 'hi',
      attachments: [attachmentInput('a.txt', 'text/plain', 'x')],
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('attachment_refused');
      expect(result.error.message).toMatch(/attachments is a symlink; .* never through a link/);
    }
    expect(fs.existsSync(path.join(fixture.home, 'a.txt'))).toBe(false);
  });

  it('carries a message at the limits in one frame (16 MB of images)', async () => {
    const chat = await newChat('limits');
    const base = pngBytes(4, 4).length;
    // Four images of 3.75 MB and the rest of the 16 MB in a fifth.
    const big = pngBytes(4, 4, ATTACHMENT_LIMITS.imageBytes - base - 12);
    const rest = ATTACHMENT_LIMITS.totalBytes - 4 * big.length;
    const last = pngBytes(4, 4, rest - base - 12);
    expect(4 * big.length + last.length).toBe(ATTACHMENT_LIMITS.totalBytes);
    const attachments = [0, 1, 2, 3].map((i) => attachmentInput(`big${i}.png`, 'image/png', big));
    attachments.push(attachmentInput('last.png', 'image/png', last));
    const text = '\u0001'.repeat(1_000_000);
    // A worst case: the longest text, every character escaped in the JSON (\u0001 is 6 bytes).
    const frame = JSON.stringify({
      type: 'invoke',
      id: 1,
      channel: 'turn.send',
      request: { chatId: chat.id, text, attachments },
    });
    expect(Buffer.byteLength(frame)).toBeLessThan(MAX_FRAME);
    fixture.provider.enqueue({ events: openAiEvents([{ text: 'Five images.' }]) });
    value(await client.bridge.api.invoke('turn.send', { chatId: chat.id, text, attachments }));
    const finished = await client.chatEvent('turn.finished', (e) => e.chatId === chat.id);
    // The whole event on failure: a turn that failed says why (seen once under heavy load).
    expect((finished as { status?: string }).status, JSON.stringify(finished)).toBe('completed');
    expect(fs.readdirSync(path.join(chat.workspace, 'attachments'))).toHaveLength(5);
  }, 60_000);

  it('closes a socket that sends a frame past the limit with 1009, and the page can connect again', async () => {
    const url = `ws://127.0.0.1:${fixture.web.port}/ws?token=${fixture.web.token}`;
    const socket = new WebSocket(url, { origin: `http://127.0.0.1:${fixture.web.port}` });
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    socket.send('x'.repeat(MAX_FRAME + 1));
    // 1009: "message too big" (RFC 6455); ws sends no reason with it.
    expect((await closed).code).toBe(1009);
    const again = await fixture.connect();
    expect(value(await again.bridge.api.invoke('chats.list', {}))).toBeInstanceOf(Array);
  });

  it("the page's bridge refuses a request past the frame limit in words, unsent, and stays connected", async () => {
    const chat = await newChat('too big');
    const result = await client.bridge.api.invoke('turn.send', {
      chatId: chat.id,
      text: 'x'.repeat(MAX_FRAME),
    });
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'invalid_request',
        message: 'the request is 32 MB, more than the 32 MB the app takes at once; nothing was sent',
      },
    });
    expect(value(await client.bridge.api.invoke('chats.list', {}))).toBeInstanceOf(Array);
  });
});
