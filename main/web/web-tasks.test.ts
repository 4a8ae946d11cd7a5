// Background tasks through browser mode: a gated background_command becomes a live task with its limit on
// `task.changed`, listed by tasks.list, and tasks.cancel stops it.
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

async function newChat(title: string): Promise<string> {
  return value(await client.bridge.api.invoke('chats.create', { title })).id;
}

describe('browser mode: background tasks', () => {
  it('a background task is listed live with its limit, and Cancel stops it', async () => {
    const chatId = await newChat('background');
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
              args: '{"command":"sleep 30","timeout_min":5}',
            },
          },
        ]),
      },
      { events: openAiEvents([{ text: 'Started it.' }]) },
    );
    const opened = client.dialog('approval');
    value(await client.bridge.api.invoke('turn.send', { chatId, text: 'start a long job' }));
    const dialog = await opened;
    value(
      await client.bridge.dialogs.answerApproval({ id: dialog.id, index: 0, choice: { kind: 'allow_once' } }),
    );
    await client.chatEvent('turn.finished', (e) => e.chatId === chatId);
    const tasks = value(await client.bridge.api.invoke('tasks.list', { chatId }));
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      tool: 'background_command',
      status: 'running',
      limitMs: 5 * 60_000,
      chatId,
    });
    const live = client.events.find((e) => e.channel === 'task.changed');
    expect(live?.payload).toMatchObject({ id: tasks[0]?.id, status: 'running' });
    expect(value(await client.bridge.api.invoke('tasks.cancel', { taskId: tasks[0]?.id ?? '' }))).toEqual({
      cancelled: true,
    });
    await expect
      .poll(() =>
        client.events.some(
          (e) =>
            e.channel === 'task.changed' &&
            (e.payload as { id: string; status: string }).id === tasks[0]?.id &&
            (e.payload as { status: string }).status === 'cancelled',
        ),
      )
      .toBe(true);
    expect(value(await client.bridge.api.invoke('tasks.list', { chatId }))[0]?.status).toBe('cancelled');
  });
});
