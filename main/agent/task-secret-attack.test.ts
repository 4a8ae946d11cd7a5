// Secrets in background tasks (docs/security.md, "Redaction"): a background command's output tail was scrubbed, but
// the task's result and error were kept as the command printed them, so a stored key the command printed reached the
// database's task row, the task list and the task.updated event as itself (a key printed in two pieces was already
// held back from the tail by the stream redactor). Through the real chat stack (ChatService, the dispatcher's
// tasks, the SQLite store), a real shell command and a scripted model.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAiEvents } from './providers/testing/openai-test-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture } from './testing/chat-fixture';
import { withoutKeychain } from '../secrets/testing/no-keychain';

const CANARY = 'task-canary-7Hq2Lm9Zx4';

let fixture: ChatFixture | undefined;
withoutKeychain();
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const call = (id: string, name: string, args: unknown) => ({
  toolCall: { id, name, args: JSON.stringify(args) },
});

async function runTask(command: string) {
  fixture = await chatFixture({
    prepare: (home) =>
      fs.writeFileSync(path.join(home, '.secrets'), `DEPLOY_KEY=${CANARY}\n`, { mode: 0o600 }),
  });
  const { core, server, service, store } = fixture;
  // The key has been used in this process (a tool looked it up), so the redactor knows it.
  expect(await core.secrets.get('DEPLOY_KEY')).toBe(CANARY);
  fs.writeFileSync(path.join(fixture.workspace, 'deploy.env.txt'), `${CANARY}\n`);
  const events: string[] = [];
  service.on((event) => events.push(JSON.stringify(event)));
  server.enqueue(
    { events: openAiEvents([call('f1', 'find_tools', { query: 'select:background_command' })]) },
    { events: openAiEvents([call('b1', 'background_command', { command, timeout_min: 1 })]) },
    { events: openAiEvents([{ text: 'started' }]) },
  );
  const chat = service.createChat({ workspace: fixture.workspace });
  expect(await service.send(chat.id, 'run it')).toMatchObject({ status: 'completed' });
  const [task] = core.tasks.list({ chatId: chat.id });
  expect(task).toBeDefined();
  await core.tasks.wait(task!.id);
  const row = store.tasks.get(task!.id);
  expect(row?.status).not.toBe('running');
  return {
    row: JSON.stringify(row),
    events: events.join('\n'),
    view: JSON.stringify(core.tasks.get(task!.id)),
  };
}

describe('a background task never holds a secret', () => {
  it('a key the command prints is scrubbed from the task row, the task list and its events', async () => {
    const seen = await runTask('cat deploy.env.txt');
    expect(seen.row).toContain('[redacted:DEPLOY_KEY]');
    expect(seen.row).not.toContain(CANARY);
    expect(seen.events).not.toContain(CANARY);
    expect(seen.view).not.toContain(CANARY);
  }, 60_000);

  it('a key in the output of a command that fails is scrubbed from the task error', async () => {
    const seen = await runTask('cat deploy.env.txt; exit 3');
    expect(seen.row).toContain('"status":"failed"');
    expect(seen.row).not.toContain(CANARY);
    expect(seen.events).not.toContain(CANARY);
    expect(seen.view).not.toContain(CANARY);
  }, 60_000);
});
