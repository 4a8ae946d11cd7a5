// Notes: what a finished background task tells the chat; the model sees each once, at its next request.
// The store must never be given secret values: callers pass text the redactor has already cleaned.
import type Database from 'better-sqlite3';
import type { MessageRef, MessageRow, StoredMessage } from './message-rows';
import { messageInserter, toStoredMessage } from './message-rows';

/** A note to add. */
export interface NewNote {
  text: string;
  taskId?: string;
}

/** Notes, stored as messages with role 'note' so they keep their place in the chat. */
export class NoteTable {
  private readonly insert: ReturnType<typeof messageInserter>;

  constructor(private readonly db: Database.Database) {
    this.insert = messageInserter(db);
  }

  /** Adds an unseen note to a chat. */
  add(chatId: string, note: NewNote): MessageRef {
    return this.insert({
      chatId,
      role: 'note',
      content: JSON.stringify({ text: note.text }),
      text: note.text,
      status: 'complete',
      taskId: note.taskId ?? null,
      seen: 0,
    });
  }

  /** The chat's notes no request has carried yet, oldest first. */
  unseen(chatId: string): StoredMessage[] {
    const rows = this.db
      .prepare(`SELECT * FROM messages WHERE chat_id = ? AND role = 'note' AND seen = 0 ORDER BY seq`)
      .all(chatId) as MessageRow[];
    return rows.map(toStoredMessage);
  }

  /** Marks notes as carried to the model (call it once the request that includes them is sent). */
  markSeen(ids: readonly number[]): void {
    const mark = this.db.prepare(
      `UPDATE messages SET seen = 1, updated_at = ? WHERE id = ? AND role = 'note'`,
    );
    this.db.transaction(() => {
      const now = Date.now();
      for (const id of ids) mark.run(now, id);
    })();
  }
}
