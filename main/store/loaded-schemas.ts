// The tool schemas each chat has loaded (docs/tools.md, "Tool discovery"), in load order so a reopened chat keeps its request prefix.
import type Database from 'better-sqlite3';

/** The loaded schema names of every chat. */
export class LoadedSchemaTable {
  private readonly replace: (chatId: string, names: readonly string[]) => void;

  constructor(private readonly db: Database.Database) {
    const clear = db.prepare('DELETE FROM loaded_schemas WHERE chat_id = ?');
    const insert = db.prepare('INSERT INTO loaded_schemas (chat_id, position, name) VALUES (?, ?, ?)');
    this.replace = db.transaction((chatId: string, names: readonly string[]) => {
      clear.run(chatId);
      // A repeated name keeps its first place, as LoadedSchemas.restore does.
      [...new Set(names)].forEach((name, position) => insert.run(chatId, position, name));
    });
  }

  /** Replaces a chat's list of loaded names, in order. */
  set(chatId: string, names: readonly string[]): void {
    this.replace(chatId, names);
  }

  /** A chat's loaded names in load order. */
  get(chatId: string): string[] {
    return this.db
      .prepare('SELECT name FROM loaded_schemas WHERE chat_id = ? ORDER BY position')
      .pluck()
      .all(chatId) as string[];
  }
}
