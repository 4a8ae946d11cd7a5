// The row shape of the messages table, shared by transcript messages and notes.
import type Database from 'better-sqlite3';
import type { TranscriptMessage } from './transcript';

/** Where a message stands: streaming until finished; `interrupted` when the process died mid-stream. */
export type MessageStatus = 'streaming' | 'complete' | 'cut' | 'cancelled' | 'interrupted';

/** A note the chat receives outside a turn (a background task finished); the model sees it at its next request. */
export interface NoteMessage {
  role: 'note';
  text: string;
  taskId: string | null;
  /** Whether a request has carried it to the model yet. */
  seen: boolean;
}

/** A stored message with its place in the chat. */
export interface StoredMessage {
  id: number;
  chatId: string;
  /** 1, 2, 3 … within the chat. */
  seq: number;
  status: MessageStatus;
  createdAt: number;
  updatedAt: number;
  message: TranscriptMessage | NoteMessage;
}

/** Where a new message landed. */
export interface MessageRef {
  id: number;
  seq: number;
}

/** The columns of one message row. */
export interface MessageRow {
  id: number;
  chat_id: string;
  seq: number;
  role: 'user' | 'assistant' | 'tool_results' | 'note';
  content: string;
  text: string;
  status: MessageStatus;
  task_id: string | null;
  seen: number | null;
  created_at: number;
  updated_at: number;
}

/** What `insertMessage` writes. */
export interface MessageInsert {
  chatId: string;
  role: MessageRow['role'];
  content: string;
  text: string;
  status: MessageStatus;
  taskId: string | null;
  seen: number | null;
}

/** Turns a row back into a stored message. */
export function toStoredMessage(row: MessageRow): StoredMessage {
  const message: StoredMessage['message'] =
    row.role === 'note'
      ? { role: 'note', text: row.text, taskId: row.task_id, seen: row.seen === 1 }
      : row.role === 'tool_results'
        ? { role: 'tool_results', results: JSON.parse(row.content) }
        : { role: row.role, content: JSON.parse(row.content) };
  return {
    id: row.id,
    chatId: row.chat_id,
    seq: row.seq,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    message,
  };
}

/** Builds the insert that appends a message at the chat's next seq and marks the chat active. */
export function messageInserter(db: Database.Database): (insert: MessageInsert) => MessageRef {
  // The seq is taken inside the INSERT itself, so it cannot race another writer on this connection.
  const insert = db.prepare(`
    INSERT INTO messages (chat_id, seq, role, content, text, status, task_id, seen, created_at, updated_at)
    SELECT @chatId, coalesce(max(seq), 0) + 1, @role, @content, @text, @status, @taskId, @seen, @now, @now
      FROM messages WHERE chat_id = @chatId
    RETURNING id, seq`);
  const touch = db.prepare('UPDATE chats SET updated_at = max(updated_at, ?) WHERE id = ?');
  return db.transaction((row: MessageInsert): MessageRef => {
    const now = Date.now();
    const ref = insert.get({ ...row, now }) as MessageRef;
    touch.run(now, row.chatId);
    return ref;
  });
}
