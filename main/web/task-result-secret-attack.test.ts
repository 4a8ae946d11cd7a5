// A background task's result and error are what the task list, the database and the note added to the chat hold.
// A run_command's result is redacted by the dispatcher; a background_command's was not: a command printing a file
// that holds a key the app had read (here by http_request's ${secret:…}) put the key in clear in the chat database
// (the task's row and its note). Through browser mode's real stack, a real sandboxed command, a canary key.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiEvents } from '../agent/providers/testing/openai-test-server';
import type { TestClient, WebFixture } from './testing/web-fixture';
import { value, webFixture } from './testing/web-fixture';
import { withoutKeychain } from '../secrets/testing/no-keychain';

const KEY = 'Tq4CanaryTASK8LmZv2';

let fixture: WebFixture;
let client: TestClient;
withoutKeychain();

beforeAll(async () => {
  fixture = await webFixture({
    prepare: (home, workspace) => {
      fs.writeFileSync(path.join(home, '.secrets'), `CANARY_KEY=${KEY}\n`, { mode: 0o600 });
      fs.writeFileSync(path.join(workspace, 'notes.txt'), `token ${KEY}\n`);
    },
  });
  client = await fixture.connect();
}, 60_000);

afterAll(async () => {
  await fixture?.close();
});

function allowEverything(chatId: string): () => void {
  let stopped = false;
  void (async () => {
    while (!stopped) {
      const dialog = await client.dialog('approval');
      if (stopped || dialog.chatId !== chatId) continue;
      for (const [index] of dialog.items.entries())
        await client.bridge.dialogs.answerApproval({ id: dialog.id, index, choice: { kind: 'allow_once' } });
    }
  })();
  return () => (stopped = true);
}

const call = (id: string, name: string, args: unknown) => ({
  events: openAiEvents([{ toolCall: { id, name, args: JSON.stringify(args) } }]),
});

describe('background task results and secrets', () => {
  it('keep a key the app knows out of the task list, the database and the note the model reads', async () => {
    const chatId = value(await client.bridge.api.invoke('chats.create', { title: 'tasks' })).id;
    fixture.provider.enqueue(
      call('f1', 'find_tools', { query: 'select:http_request,background_command' }),
      // Reading the key through ${secret:…} teaches the redactor its value, as any use of it in the session would.
      call('h1', 'http_request', { url: 'https://${secret:CANARY_KEY}.invalid/', timeout: 5 }),
      call('b1', 'background_command', { command: 'cat notes.txt', timeout_min: 1 }),
      call('b2', 'background_command', { command: 'cat notes.txt; exit 3', timeout_min: 1 }),
      { events: openAiEvents([{ text: 'Started.' }]) },
    );
    const stop = allowEverything(chatId);
    value(await client.bridge.api.invoke('turn.send', { chatId, text: 'read the notes' }));
    await client.chatEvent('turn.finished', (e) => e.chatId === chatId);
    stop();
    await expect
      .poll(
        async () =>
          (value(await client.bridge.api.invoke('tasks.list', {})) as Array<{ status: string }>)
            .map((task) => task.status)
            .sort(),
        { timeout: 20_000 },
      )
      .toEqual(['failed', 'succeeded']);
    const tasks = JSON.stringify(value(await client.bridge.api.invoke('tasks.list', {})));
    expect(tasks).toContain('token [redacted:CANARY_KEY]');
    expect(tasks).not.toContain(KEY);

    // The finished tasks' notes go to the model with the next request.
    fixture.provider.enqueue({ events: openAiEvents([{ text: 'Read them.' }]) });
    value(await client.bridge.api.invoke('turn.send', { chatId, text: 'how did they go?' }));
    await client.chatEvent('turn.finished', (e) => e.chatId === chatId && e.status === 'completed');
    const model = JSON.stringify(fixture.provider.requests.map((request) => request.body));
    expect(model.includes(KEY), 'the model requests hold the key').toBe(false);
    expect(client.frames.join('\n').includes(KEY), 'the frames hold the key').toBe(false);
    const desktop = path.join(fixture.home, 'desktop');
    for (const file of fs.readdirSync(desktop, { recursive: true })) {
      const full = path.join(desktop, String(file));
      if (fs.statSync(full).isFile()) expect(fs.readFileSync(full).includes(KEY), full).toBe(false);
    }
  }, 90_000);
});
