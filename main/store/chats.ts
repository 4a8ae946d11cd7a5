// Chats: a title and a workspace; everything else in the history hangs off a chat and goes with it.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { ChatReasoning } from '../core/model-usage';

/** A chat as stored. */
export interface ChatRecord {
  id: string;
  title: string;
  workspace: string;
  createdAt: number;
  /** Last activity: creation, rename, or a message added. */
  updatedAt: number;
  /** How much the model reasons in this chat; 'default' follows the settings. */
  reasoning: ChatReasoning;
  /** The model this chat's turns use; null follows the settings' model. */
  model: string | null;
}

/** A new chat; the id is generated when left out. */
export interface NewChat {
  id?: string;
  title: string;
  workspace: string;
}

/** Options of `ChatTable.list`. */
export interface ChatListOptions {
  /** Case-insensitive substring of the title. */
  search?: string;
  limit?: number;
}

interface ChatRow {
  id: string;
  title: string;
  workspace: string;
  created_at: number;
  updated_at: number;
  reasoning: ChatReasoning;
  model: string | null;
}

/** Escapes LIKE wildcards so user text matches literally (used with ESCAPE '\'). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function toChat(row: ChatRow): ChatRecord {
  return {
    id: row.id,
    title: row.title,
    workspace: row.workspace,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    reasoning: row.reasoning,
    model: row.model,
  };
}

/** The chats table. */
export class ChatTable {
  private readonly insert: Database.Statement;
  private readonly byId: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare(
      'INSERT INTO chats (id, title, workspace, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING *',
    );
    this.byId = db.prepare('SELECT * FROM chats WHERE id = ?');
  }

  /** Creates a chat; throws if the id is taken. */
  create(chat: NewChat): ChatRecord {
    const now = Date.now();
    return toChat(
      this.insert.get(chat.id ?? `chat_${randomUUID()}`, chat.title, chat.workspace, now, now) as ChatRow,
    );
  }

  /** One chat, or undefined. */
  get(id: string): ChatRecord | undefined {
    const row = this.byId.get(id) as ChatRow | undefined;
    return row && toChat(row);
  }

  /** Chats, most recently active first. */
  list(options: ChatListOptions = {}): ChatRecord[] {
    const limit = options.limit ?? -1;
    const rows = options.search
      ? this.db
          .prepare(
            "SELECT * FROM chats WHERE title LIKE ? ESCAPE '\\' ORDER BY updated_at DESC, rowid DESC LIMIT ?",
          )
          .all(likePattern(options.search), limit)
      : this.db.prepare('SELECT * FROM chats ORDER BY updated_at DESC, rowid DESC LIMIT ?').all(limit);
    return (rows as ChatRow[]).map(toChat);
  }

  /** Renames a chat; false when there is no such chat. */
  rename(id: string, title: string): boolean {
    return (
      this.db.prepare('UPDATE chats SET title = ?, updated_at = ? WHERE id = ?').run(title, Date.now(), id)
        .changes === 1
    );
  }

  /** Moves a chat to another workspace; false when there is no such chat. */
  setWorkspace(id: string, workspace: string): boolean {
    return this.db.prepare('UPDATE chats SET workspace = ? WHERE id = ?').run(workspace, id).changes === 1;
  }

  /** Sets how much the model reasons in a chat; false when there is no such chat. */
  setReasoning(id: string, reasoning: ChatReasoning): boolean {
    return this.db.prepare('UPDATE chats SET reasoning = ? WHERE id = ?').run(reasoning, id).changes === 1;
  }

  /** Sets the model of a chat's next turns (null: the settings' model); false when there is no such chat. */
  setModel(id: string, model: string | null): boolean {
    return this.db.prepare('UPDATE chats SET model = ? WHERE id = ?').run(model, id).changes === 1;
  }

  /** Deletes a chat with its messages, tool calls, approvals, tasks, todos and schemas; false when absent. */
  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM chats WHERE id = ?').run(id).changes === 1;
  }
}
