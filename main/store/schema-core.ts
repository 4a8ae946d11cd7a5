// Schema v1: the tables of the chat history. Timestamps are epoch ms; JSON columns hold redacted text only.
import type Database from 'better-sqlite3';

/** Creates the v1 tables (migration 1). */
export function coreSchema(db: Database.Database): void {
  db.exec(`
    CREATE TABLE chats (
      id TEXT PRIMARY KEY,
      title TEXT NOT NULL,
      workspace TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX chats_by_update ON chats (updated_at DESC);

    -- AUTOINCREMENT: a message id handed to the UI is never reused after a chat is deleted.
    CREATE TABLE messages (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      chat_id TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'tool_results', 'note')),
      content TEXT NOT NULL,
      text TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('streaming', 'complete', 'cut', 'cancelled', 'interrupted')),
      task_id TEXT,
      seen INTEGER CHECK (seen IN (0, 1)),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (chat_id, seq)
    ) STRICT;
    CREATE INDEX messages_streaming ON messages (id) WHERE status = 'streaming';
    CREATE INDEX messages_unseen_notes ON messages (chat_id) WHERE seen = 0;

    CREATE TABLE tool_calls (
      chat_id TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
      call_id TEXT NOT NULL,
      message_id INTEGER REFERENCES messages (id) ON DELETE SET NULL,
      tool TEXT NOT NULL,
      source TEXT NOT NULL,
      args TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'finished', 'interrupted')),
      outcome TEXT CHECK (outcome IN ('ok', 'error', 'timed_out', 'cancelled', 'denied')),
      code TEXT,
      result TEXT,
      queued_at INTEGER NOT NULL,
      started_at INTEGER,
      ended_at INTEGER,
      duration_ms REAL,
      limit_ms INTEGER,
      PRIMARY KEY (chat_id, call_id)
    ) STRICT;
    CREATE INDEX tool_calls_unfinished ON tool_calls (chat_id) WHERE status IN ('queued', 'running');

    CREATE TABLE approvals (
      chat_id TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
      call_id TEXT NOT NULL,
      tool TEXT NOT NULL,
      definition_hash TEXT,
      requested_at INTEGER NOT NULL,
      decided_at INTEGER,
      decision TEXT CHECK (decision IN ('allow', 'deny', 'stop')),
      scope TEXT CHECK (scope IN ('once', 'chat', 'always')),
      reason TEXT,
      message TEXT,
      timed_out INTEGER NOT NULL DEFAULT 0 CHECK (timed_out IN (0, 1)),
      PRIMARY KEY (chat_id, call_id)
    ) STRICT;

    CREATE TABLE tasks (
      id TEXT PRIMARY KEY,
      chat_id TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
      tool TEXT NOT NULL,
      summary TEXT NOT NULL,
      status TEXT NOT NULL
        CHECK (status IN ('running', 'succeeded', 'failed', 'timed_out', 'cancelled', 'interrupted')),
      started_at INTEGER NOT NULL,
      ended_at INTEGER,
      limit_ms INTEGER,
      output_tail TEXT NOT NULL,
      result TEXT,
      error TEXT,
      updated_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX tasks_by_chat ON tasks (chat_id, started_at);
    CREATE INDEX tasks_running ON tasks (id) WHERE status = 'running';

    -- No foreign keys: the record of a live group must outlive its task's or chat's rows until it is killed.
    CREATE TABLE process_groups (
      pgid INTEGER PRIMARY KEY,
      command TEXT NOT NULL,
      started_at INTEGER NOT NULL,
      start_time TEXT,
      boot_id TEXT,
      task_id TEXT,
      call_id TEXT
    ) STRICT;

    CREATE TABLE todos (
      chat_id TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      text TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'in_progress', 'done')),
      PRIMARY KEY (chat_id, position)
    ) STRICT;

    CREATE TABLE loaded_schemas (
      chat_id TEXT NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      name TEXT NOT NULL,
      PRIMARY KEY (chat_id, position),
      UNIQUE (chat_id, name)
    ) STRICT;
  `);
}
