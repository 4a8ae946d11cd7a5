// Schema v2: an FTS5 index over the messages' plain text, kept in step by triggers and filled from what v1 stored.
import type Database from 'better-sqlite3';

/** Whether this SQLite build has FTS5 (better-sqlite3's bundled build does; a system SQLite may not). */
export function hasFts5(db: Database.Database): boolean {
  return Number(db.prepare("SELECT sqlite_compileoption_used('ENABLE_FTS5')").pluck().get()) === 1;
}

/** Whether the database has the full-text index (absent when it was migrated by a build without FTS5). */
export function hasSearchIndex(db: Database.Database): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts'").get() !==
    undefined
  );
}

/** Creates the index and its triggers and indexes existing messages (migration 2); a no-op without FTS5. */
export function searchSchema(db: Database.Database): void {
  // Without FTS5 the version still moves on; search then falls back to LIKE.
  if (!hasFts5(db)) return;
  db.exec(`
    CREATE VIRTUAL TABLE messages_fts USING fts5 (
      text,
      content = 'messages',
      content_rowid = 'id',
      tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
      INSERT INTO messages_fts (rowid, text) VALUES (new.id, new.text);
    END;
    CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
      INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
    END;
    CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages BEGIN
      INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
      INSERT INTO messages_fts (rowid, text) VALUES (new.id, new.text);
    END;
    INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
  `);
}
