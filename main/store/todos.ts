// The write_todo checklist of each chat, replaced whole on every write.
import type Database from 'better-sqlite3';

/** One checklist item. */
export interface TodoItem {
  text: string;
  status: 'pending' | 'in_progress' | 'done';
}

/** The checklists of every chat. */
export class TodoTable {
  private readonly replace: (chatId: string, items: readonly TodoItem[]) => void;

  constructor(private readonly db: Database.Database) {
    const clear = db.prepare('DELETE FROM todos WHERE chat_id = ?');
    const insert = db.prepare('INSERT INTO todos (chat_id, position, text, status) VALUES (?, ?, ?, ?)');
    this.replace = db.transaction((chatId: string, items: readonly TodoItem[]) => {
      clear.run(chatId);
      items.forEach((item, position) => insert.run(chatId, position, item.text, item.status));
    });
  }

  /** Replaces a chat's checklist in one transaction. */
  set(chatId: string, items: readonly TodoItem[]): void {
    this.replace(chatId, items);
  }

  /** A chat's checklist in order (empty when it has none). */
  get(chatId: string): TodoItem[] {
    return this.db
      .prepare('SELECT text, status FROM todos WHERE chat_id = ? ORDER BY position')
      .all(chatId) as TodoItem[];
  }
}
