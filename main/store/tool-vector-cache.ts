// The cache of tool embeddings (docs/search.md, "Embeddings (optional)"): one SQLite row per (model id, tool name,
// definition hash), so a tool is embedded once per definition and model, across restarts. It lives in its own file
// under desktop/cache/, apart from the chat history: it is disposable (losing it costs one re-embedding), and its
// schema moves without raising the history's version. Rows not used for 30 days go, and the file never holds more
// than MAX_CACHED_VECTORS rows.
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { ToolVector, ToolVectorCache } from '../core/embedding-port';
import { openDatabase } from './connection';
import type { Migration } from './migrations';
import { migrate } from './migrations';

/** Most rows kept; the least recently used go first. */
export const MAX_CACHED_VECTORS = 100_000;
/** A row not used for this long is dropped. */
export const UNUSED_VECTOR_MS = 30 * 24 * 60 * 60 * 1000;
/** The longest vector a row may hold (as the client takes). */
const MAX_STORED_DIMENSIONS = 8192;

/** The cache file's own migrations (it is not the history database). */
export const VECTOR_CACHE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'tool embeddings per model and definition',
    up(db) {
      db.exec(`
        CREATE TABLE IF NOT EXISTS tool_embeddings (
          model TEXT NOT NULL,
          tool TEXT NOT NULL,
          definition_hash TEXT NOT NULL,
          dimensions INTEGER NOT NULL,
          vector BLOB NOT NULL,
          used_at INTEGER NOT NULL,
          PRIMARY KEY (model, tool, definition_hash)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS tool_embeddings_used ON tool_embeddings (used_at);
      `);
    },
  },
];

/** Where the cache lives under the desktop folder. */
export function vectorCachePath(desktop: string): string {
  return path.join(desktop, 'cache', 'tool-embeddings.db');
}

/**
 * Opens (creating it if needed) the cache at `file`. A file that is not a database, or of a newer schema, is set aside
 * (renamed with `.broken`) and a new one started: it is a cache, nothing in it is the only copy.
 */
export function openToolVectorCache(file: string, now: () => number = Date.now): SqliteToolVectorCache {
  try {
    return new SqliteToolVectorCache(open(file), now);
  } catch {
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        fs.renameSync(file + suffix, `${file}${suffix}.broken`);
      } catch {
        // Not there: nothing to set aside.
      }
    }
    return new SqliteToolVectorCache(open(file), now);
  }
}

function open(file: string): Database.Database {
  const db = openDatabase(file, { synchronous: 'normal' });
  try {
    migrate(db, VECTOR_CACHE_MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

interface Row {
  tool: string;
  definition_hash: string;
  dimensions: number;
  vector: Buffer;
}

/** The cache over one SQLite file. */
export class SqliteToolVectorCache implements ToolVectorCache {
  private readonly select: Database.Statement<[string, string, string], Row>;
  private readonly touch: Database.Statement<[number, string, string, string]>;
  private readonly drop: Database.Statement<[string, string, string]>;
  private readonly insert: Database.Statement<[string, string, string, number, Buffer, number]>;
  private pruned = false;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {
    this.select = db.prepare(
      'SELECT tool, definition_hash, dimensions, vector FROM tool_embeddings WHERE model = ? AND tool = ? AND definition_hash = ?',
    );
    this.touch = db.prepare(
      'UPDATE tool_embeddings SET used_at = ? WHERE model = ? AND tool = ? AND definition_hash = ?',
    );
    this.drop = db.prepare(
      'DELETE FROM tool_embeddings WHERE model = ? AND tool = ? AND definition_hash = ?',
    );
    this.insert = db.prepare(
      'INSERT OR REPLACE INTO tool_embeddings (model, tool, definition_hash, dimensions, vector, used_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
  }

  /** The stored vectors of these tools; each one found is marked used, a damaged row is deleted. */
  load(model: string, tools: ReadonlyArray<{ name: string; hash: string }>): ToolVector[] {
    const found: ToolVector[] = [];
    const now = this.now();
    this.db.transaction(() => {
      for (const { name, hash } of tools) {
        const row = this.select.get(model, name, hash);
        if (!row) continue;
        const vector = decode(row);
        if (!vector) {
          this.drop.run(model, name, hash);
          continue;
        }
        this.touch.run(now, model, name, hash);
        found.push({ name, hash, vector });
      }
    })();
    return found;
  }

  /** Stores vectors (replacing rows of the same key); the first save of a process also prunes. */
  save(model: string, vectors: readonly ToolVector[]): void {
    const now = this.now();
    this.db.transaction(() => {
      for (const { name, hash, vector } of vectors) {
        const bytes = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
        this.insert.run(model, name, hash, vector.length, bytes, now);
      }
    })();
    if (!this.pruned) {
      this.pruned = true;
      this.prune();
    }
  }

  /** Drops every vector of `model`. */
  forget(model: string): void {
    this.db.prepare('DELETE FROM tool_embeddings WHERE model = ?').run(model);
  }

  /** Rows unused for UNUSED_VECTOR_MS go, then the least recently used past MAX_CACHED_VECTORS. */
  prune(): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM tool_embeddings WHERE used_at < ?').run(this.now() - UNUSED_VECTOR_MS);
      const count = Number(this.db.prepare('SELECT COUNT(*) FROM tool_embeddings').pluck().get());
      if (count > MAX_CACHED_VECTORS)
        this.db
          .prepare(
            `DELETE FROM tool_embeddings WHERE (model, tool, definition_hash) IN (
               SELECT model, tool, definition_hash FROM tool_embeddings ORDER BY used_at ASC LIMIT ?)`,
          )
          .run(count - MAX_CACHED_VECTORS);
    })();
  }

  /** How many rows the cache holds (tests, the bench). */
  size(): number {
    return Number(this.db.prepare('SELECT COUNT(*) FROM tool_embeddings').pluck().get());
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

// A row is used only when its bytes are exactly its length of finite floats, not all zero.
function decode(row: Row): Float32Array | null {
  const { dimensions, vector } = row;
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_STORED_DIMENSIONS) return null;
  if (!Buffer.isBuffer(vector) || vector.length !== dimensions * 4) return null;
  // Copied into its own buffer: the row's may be shared and unaligned.
  const values = new Float32Array(dimensions);
  new Uint8Array(values.buffer).set(vector);
  let norm = 0;
  for (const value of values) {
    if (!Number.isFinite(value)) return null;
    norm += value * value;
  }
  return norm > 0 ? values : null;
}
