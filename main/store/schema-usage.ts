// Schema v3: each model round's token usage (docs/agent-loop.md, "Usage and cost") and each chat's reasoning level.
import type Database from 'better-sqlite3';

/** Adds the usage table and the chats' reasoning column (migration 3). */
export function usageSchema(db: Database.Database): void {
  db.exec(`
    -- One row per model round, keyed by the round's assistant message. NULL is a figure the server did not report.
    CREATE TABLE round_usage (
      message_id INTEGER PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
      chat_id TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
      round INTEGER NOT NULL,
      model TEXT NOT NULL,
      input_tokens INTEGER CHECK (input_tokens >= 0),
      output_tokens INTEGER CHECK (output_tokens >= 0),
      cache_read_tokens INTEGER CHECK (cache_read_tokens >= 0),
      cache_write_tokens INTEGER CHECK (cache_write_tokens >= 0),
      cost_usd REAL CHECK (cost_usd >= 0),
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX round_usage_by_chat ON round_usage (chat_id);

    ALTER TABLE chats ADD COLUMN reasoning TEXT NOT NULL DEFAULT 'default'
      CHECK (reasoning IN ('default', 'off', 'low', 'medium', 'high'));
  `);
}
