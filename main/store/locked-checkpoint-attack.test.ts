// Another process holds the history's write lock past the busy wait while an answer streams (a backup tool, the
// sqlite3 shell, another agenvoy's long write): one checkpoint that could not get the lock ended the whole turn as
// failed ("database is locked") and the rest of the answer was dropped, though the next save would have gone through.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantPart } from './transcript';
import { CHECKPOINT_INTERVAL_MS, StreamCheckpointer } from './stream-checkpointer';
import { tempStore } from './testing/temp-store';

let temp: ReturnType<typeof tempStore> | undefined;
let holder: Database.Database | undefined;
afterEach(() => {
  holder?.close();
  holder = undefined;
  temp?.dispose();
  temp = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (t: string): AssistantPart[] => [{ type: 'text', text: t }];

describe('the history is locked by another writer for a moment mid-stream', () => {
  it('keeps streaming and saves what it could not save at the next checkpoint', async () => {
    temp = tempStore({ busyTimeoutMs: 50 });
    const store = temp.store;
    store.chats.create({ id: 'c', title: 'Chat', workspace: '/w' });
    const { id } = store.messages.begin('c');
    const stream = new StreamCheckpointer(store.messages, id);
    // Another connection takes the write lock and keeps it past the busy wait.
    holder = new Database(temp.file);
    holder.exec('BEGIN IMMEDIATE');
    holder.prepare('UPDATE chats SET title = title').run();
    stream.update(text('first words'));
    await sleep(CHECKPOINT_INTERVAL_MS * 2);
    holder.exec('COMMIT');
    expect(() => stream.update(text('first words and more'))).not.toThrow();
    await sleep(CHECKPOINT_INTERVAL_MS * 2 + 100);
    const message = store.messages.get(id)?.message;
    expect(message?.role === 'assistant' ? message.content : undefined).toEqual(text('first words and more'));
    stream.finish(text('first words and more, done'), 'complete');
    expect(store.messages.get(id)?.status).toBe('complete');
  });
});
