// Schema v4: each chat's own model (docs/agent-loop.md, "The model of a chat"); NULL follows the settings' model.
import type Database from 'better-sqlite3';

/** The longest model id kept: ids are short names ("gpt-4o", "claude-sonnet-4-5-20250929", "org/model:tag"). */
export const MAX_MODEL_ID = 200;

/** Adds the chats' model column (migration 4). */
export function chatModelSchema(db: Database.Database): void {
  db.exec(`
    ALTER TABLE chats ADD COLUMN model TEXT
      CHECK (model IS NULL OR (length(model) BETWEEN 1 AND ${MAX_MODEL_ID}));
  `);
}
