// Background tasks the person can no longer see (docs/dispatch.md, "Background tasks"). Deleting a chat removed
// its tasks from the list (their rows go with the chat) but left their processes running: a background_command
// approved earlier in the chat went on for up to its hour, listed nowhere and with no Cancel button. Deleting a
// chat now cancels its running tasks first. Through browser mode, the real core and a real process.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { value, webFixture } from './testing/web-fixture';
import { withoutKeychain } from '../secrets/testing/no-keychain';

let fixture: WebFixture;
let client: TestClient;
withoutKeychain();

beforeAll(async () => {
  fixture = await webFixture();
  client = await fixture.connect();
});

afterAll(async () => {
  await fixture?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('deleting a chat stops its background tasks', () => {
  it('the task is cancelled, not left running unlisted', async () => {
    const chat = value(await client.bridge.api.invoke('chats.create', { title: 'beats' }));
    const beat = path.join(chat.workspace, 'beat');
    const command = `while :; do date +%s%N > beat; sleep 0.05; done`;
    fixture.provider.enqueue(
      {
        events: openAiEvents([
          { toolCall: { id: 'f1', name: 'find_tools', args: '{"query":"select:background_command"}' } },
        ]),
      },
      {
        events: openAiEvents([
          {
            toolCall: {
              id: 'b1',
              name: 'background_command',
              args: JSON.stringify({ command, timeout_min: 5 }),
            },
          },
        ]),
      },
      { events: openAiEvents([{ text: 'Started it.' }]) },
    );
    const opened = client.dialog('approval');
    value(await client.bridge.api.invoke('turn.send', { chatId: chat.id, text: 'start it' }));
    const dialog = await opened;
    value(
      await client.bridge.dialogs.answerApproval({ id: dialog.id, index: 0, choice: { kind: 'allow_once' } }),
    );
    await client.chatEvent('turn.finished', (e) => e.chatId === chat.id);
    await expect.poll(() => fs.existsSync(beat), { timeout: 10_000 }).toBe(true);

    value(await client.bridge.api.invoke('chats.delete', { chatId: chat.id }));
    expect(value(await client.bridge.api.invoke('tasks.list', {}))).toEqual([]);
    await sleep(1500);
    const before = fs.readFileSync(beat, 'utf8');
    await sleep(500);
    expect(fs.readFileSync(beat, 'utf8')).toBe(before);
  }, 60_000);
});
