// Transcript messages: whole ones appended at once, and assistant messages that stream and are checkpointed.
// The store must never be given secret values: callers pass text the redactor has already cleaned.
import type Database from 'better-sqlite3';
import type { AssistantPart, TranscriptMessage } from './transcript';
import { messageText } from './message-text';
import type { MessageRef, MessageRow, StoredMessage } from './message-rows';
import { messageInserter, toStoredMessage } from './message-rows';

/** How a streamed assistant message ended: whole, cut by the provider, or stopped by the user. */
export type FinishStatus = 'complete' | 'cut' | 'cancelled';

/** Options of `MessageTable.list`. */
export interface MessageListOptions {
  /** Only messages after this seq (for paging). */
  afterSeq?: number;
  limit?: number;
}

function contentOf(message: TranscriptMessage): string {
  return JSON.stringify(message.role === 'tool_results' ? message.results : message.content);
}

/** The transcript messages of every chat (notes live in the same table, see NoteTable). */
export class MessageTable {
  private readonly insert: ReturnType<typeof messageInserter>;
  private readonly update: Database.Statement;
  private readonly byId: Database.Statement;
  private readonly page: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.insert = messageInserter(db);
    this.update = db.prepare(
      `UPDATE messages SET content = ?, text = ?, status = ?, updated_at = ? WHERE id = ? AND status = 'streaming'`,
    );
    this.byId = db.prepare('SELECT * FROM messages WHERE id = ?');
    this.page = db.prepare('SELECT * FROM messages WHERE chat_id = ? AND seq > ? ORDER BY seq LIMIT ?');
  }

  /** Appends a whole message; committed when it returns. */
  append(chatId: string, message: TranscriptMessage): MessageRef {
    return this.insert({
      chatId,
      role: message.role,
      content: contentOf(message),
      text: messageText(message),
      status: 'complete',
      taskId: null,
      seen: null,
    });
  }

  /** Starts a streaming assistant message with no content yet. */
  begin(chatId: string): MessageRef {
    return this.insert({
      chatId,
      role: 'assistant',
      content: '[]',
      text: '',
      status: 'streaming',
      taskId: null,
      seen: null,
    });
  }

  /** Saves the content streamed so far (the engine calls it at least every 250 ms); throws once finished. */
  checkpoint(id: number, content: AssistantPart[]): void {
    this.write(id, content, 'streaming');
  }

  /** Saves the final content and how the stream ended; throws if the message is not streaming. */
  finish(id: number, content: AssistantPart[], status: FinishStatus): void {
    this.write(id, content, status);
  }

  /** One message, or undefined. */
  get(id: number): StoredMessage | undefined {
    const row = this.byId.get(id) as MessageRow | undefined;
    return row && toStoredMessage(row);
  }

  /** A chat's messages and notes in order. */
  list(chatId: string, options: MessageListOptions = {}): StoredMessage[] {
    return (this.page.all(chatId, options.afterSeq ?? 0, options.limit ?? -1) as MessageRow[]).map(
      toStoredMessage,
    );
  }

  /** Marks every message still streaming as interrupted (start-up after a crash); returns their ids. */
  markInterrupted(): number[] {
    return this.db
      .prepare(
        `UPDATE messages SET status = 'interrupted', updated_at = ? WHERE status = 'streaming' RETURNING id`,
      )
      .pluck()
      .all(Date.now()) as number[];
  }

  private write(id: number, content: AssistantPart[], status: 'streaming' | FinishStatus): void {
    const message: TranscriptMessage = { role: 'assistant', content };
    const changes = this.update.run(
      JSON.stringify(content),
      messageText(message),
      status,
      Date.now(),
      id,
    ).changes;
    if (changes !== 1) throw new Error(`message ${id} is not a streaming message`);
  }
}
