// A background task's end is two writes: the task row (its status and result) and the note that tells the model
// (docs/robustness.md, "Crash recovery"). They were made one after the other, so a write that failed between them
// (the disk full, the database locked, the app killed) left a task recorded as finished with no note: the model
// never learned its result, and recovery after a restart, which looks for tasks still running, found nothing to
// tell. Through the real chat stack (ChatService, the dispatcher's tasks, the SQLite store on a file), a real shell
// command and a scripted model; the failing write is SQLite's own (a trigger raising the error a full disk gives).
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openChatStore } from '../store';
import { recoverFromCrash } from './chat-persistence';
import { openAiEvents } from './providers/testing/openai-test-server';
import type { ChatFixture } from './testing/chat-fixture';
import { chatFixture } from './testing/chat-fixture';
import { withoutKeychain } from '../secrets/testing/no-keychain';

let fixture: ChatFixture | undefined;
withoutKeychain();
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const call = (id: string, name: string, args: unknown) => ({
  toolCall: { id, name, args: JSON.stringify(args) },
});

it('a task never stays recorded as ended without the note that tells the model', async () => {
  fixture = await chatFixture();
  const { core, server, service, store } = fixture;
  const file = path.join(fixture.home, 'desktop', 'agenvoy.db');
  // Another connection to the same database: from now on, adding a note fails as a full disk makes it fail.
  const other = new Database(file);
  other.exec(`CREATE TRIGGER full_disk BEFORE INSERT ON messages WHEN NEW.role = 'note'
    BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
  server.enqueue(
    { events: openAiEvents([call('f1', 'find_tools', { query: 'select:background_command' })]) },
    { events: openAiEvents([call('b1', 'background_command', { command: 'echo built', timeout_min: 1 })]) },
    { events: openAiEvents([{ text: 'started' }]) },
  );
  const chat = service.createChat({ workspace: fixture.workspace });
  expect(await service.send(chat.id, 'build it')).toMatchObject({ status: 'completed' });
  const [task] = core.tasks.list({ chatId: chat.id });
  await core.tasks.wait(task!.id);
  // The note could not be written: the row must not say the task ended either.
  expect(store.notes.unseen(chat.id)).toEqual([]);
  expect(store.tasks.get(task!.id)?.status).toBe('running');
  other.exec('DROP TRIGGER full_disk');
  other.close();
  // The app stops (its tasks are gone with it) and starts again on the same database: recovery tells the model.
  await fixture.close();
  fixture = undefined;
  const reopened = openChatStore(file);
  try {
    await recoverFromCrash(reopened, core);
    const told = reopened.notes.unseen(chat.id);
    expect(JSON.stringify(told)).toContain(`Background task ${task!.id}`);
    expect(reopened.tasks.get(task!.id)?.status).not.toBe('running');
  } finally {
    reopened.close();
  }
}, 60_000);
