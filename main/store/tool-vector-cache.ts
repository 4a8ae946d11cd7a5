// The cache of tool embeddings (docs/search.md, "Embeddings (optional)"): one SQLite row per (model id, tool name,
// definition hash), so a tool is embedded once per definition and model, across restarts. It lives in its own file
// under desktop/cache/, apart from the chat history: it is disposable (losing it costs one re-embedding), and its
// schema moves without raising the history's version. Rows not used for 30 days go, and the file never holds more
// than MAX_CACHED_VECTORS rows or MAX_CACHED_NUMBERS numbers (checked at the first save and every PRUNE_EVERY_SAVES
// after). A damaged file is set aside whenever SQLite says so, at the open or at any read or write after it; a file
// locked by another process is waited for only CACHE_BUSY_TIMEOUT_MS (this runs on the app's main thread) and never
// set aside.
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { ToolVector, ToolVectorCache } from '../core/embedding-port';
import { openDatabase } from './connection';
import type { Migration } from './migrations';
import { migrate, schemaVersion } from './migrations';

/** Most rows kept; the least recently used go first. */
export const MAX_CACHED_VECTORS = 100_000;
/** Most numbers kept over all rows (256 MiB of float32); the least recently used rows go first. */
export const MAX_CACHED_NUMBERS = 64 * 1024 * 1024;
/** A row not used for this long is dropped. */
export const UNUSED_VECTOR_MS = 30 * 24 * 60 * 60 * 1000;
/** The cache is pruned at the first save of a process and again every this many saves. */
export const PRUNE_EVERY_SAVES = 32;
/**
 * How long a read or write waits for another connection's lock before giving up. Short: the cache is read and written
 * on the main thread of the app, and it is only a cache (the search goes on without it).
 */
export const CACHE_BUSY_TIMEOUT_MS = 100;
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
  {
    version: 2,
    name: 'the use-time index holds the dimensions too',
    up(db) {
      // Pruning by numbers sums dimensions in use-time order: from the index alone, not one table lookup per row
      // (1.4 s at 40,000 rows of 768 numbers, against milliseconds).
      db.exec(`
        DROP INDEX IF EXISTS tool_embeddings_used;
        CREATE INDEX IF NOT EXISTS tool_embeddings_used_dimensions ON tool_embeddings (used_at, dimensions);
      `);
    },
  },
];

/** Where the cache lives under the desktop folder. */
export function vectorCachePath(desktop: string): string {
  return path.join(desktop, 'cache', 'tool-embeddings.db');
}

/** Bounds of a cache (tests lower them). */
export interface ToolVectorCacheLimits {
  maxRows?: number;
  maxNumbers?: number;
}

/**
 * Opens (creating it if needed) the cache at `file`. A file that is not a database, is damaged, or is of a newer
 * schema is set aside (renamed with `.broken`) and a new one started: it is a cache, nothing in it is the only copy.
 * Any other failure (another process holds the lock, no permission) is thrown, and the file left as it is.
 */
export function openToolVectorCache(
  file: string,
  now: () => number = Date.now,
  limits: ToolVectorCacheLimits = {},
): SqliteToolVectorCache {
  return new SqliteToolVectorCache(openOrSetAside(file), now, limits, file);
}

function openOrSetAside(file: string): Database.Database {
  try {
    return open(file);
  } catch (error) {
    if (!isDamage(error)) throw error;
    setAside(file);
    return open(file);
  }
}

function open(file: string): Database.Database {
  const db = openDatabase(file, { synchronous: 'normal', busyTimeoutMs: CACHE_BUSY_TIMEOUT_MS });
  try {
    const latest = VECTOR_CACHE_MIGRATIONS.at(-1)?.version ?? 0;
    if (schemaVersion(db) > latest) throw new NewerCacheError();
    migrate(db, VECTOR_CACHE_MIGRATIONS);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** The file was written by a newer build: set aside like a damaged one (a cache is never the only copy). */
class NewerCacheError extends Error {
  constructor() {
    super('the tool embedding cache is of a newer schema than this build');
  }
}

/** SQLite says the file is damaged or not a database (not: busy, locked, read-only, no space). */
function isDamage(error: unknown): boolean {
  if (error instanceof NewerCacheError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

// The file and its -wal and -shm beside it, renamed with .broken (the last set aside replaces an older one).
function setAside(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      fs.renameSync(file + suffix, `${file}${suffix}.broken`);
    } catch {
      // Not there: nothing to set aside.
    }
  }
}

interface Row {
  tool: string;
  definition_hash: string;
  dimensions: number;
  vector: Buffer;
}

interface Statements {
  select: Database.Statement<[string, string, string], Row>;
  touch: Database.Statement<[number, string, string, string]>;
  drop: Database.Statement<[string, string, string]>;
  insert: Database.Statement<[string, string, string, number, Buffer, number]>;
}

function prepare(db: Database.Database): Statements {
  return {
    select: db.prepare(
      'SELECT tool, definition_hash, dimensions, vector FROM tool_embeddings WHERE model = ? AND tool = ? AND definition_hash = ?',
    ),
    touch: db.prepare(
      'UPDATE tool_embeddings SET used_at = ? WHERE model = ? AND tool = ? AND definition_hash = ?',
    ),
    drop: db.prepare('DELETE FROM tool_embeddings WHERE model = ? AND tool = ? AND definition_hash = ?'),
    insert: db.prepare(
      'INSERT OR REPLACE INTO tool_embeddings (model, tool, definition_hash, dimensions, vector, used_at) VALUES (?, ?, ?, ?, ?, ?)',
    ),
  };
}

/**
 * The cache over one SQLite file. Whenever SQLite finds the file damaged (SQLITE_CORRUPT*, SQLITE_NOTADB), the file is
 * set aside and a new one started: a read then finds nothing, a write goes to the new file, a forget has nothing to
 * forget. Other failures are thrown (the search goes on without the cache for that pass).
 */
export class SqliteToolVectorCache implements ToolVectorCache {
  private statements: Statements;
  private saves = 0;
  private readonly maxRows: number;
  private readonly maxNumbers: number;

  constructor(
    private db: Database.Database,
    private readonly now: () => number,
    limits: ToolVectorCacheLimits = {},
    /** The file, to set it aside when it turns out damaged; without it a damaged file's errors are thrown. */
    private readonly file?: string,
  ) {
    this.statements = prepare(db);
    this.maxRows = limits.maxRows ?? MAX_CACHED_VECTORS;
    this.maxNumbers = limits.maxNumbers ?? MAX_CACHED_NUMBERS;
  }

  /** The stored vectors of these tools; each one found is marked used, a damaged row is deleted. */
  load(model: string, tools: ReadonlyArray<{ name: string; hash: string }>): ToolVector[] {
    return this.guard(
      () => {
        const found: ToolVector[] = [];
        const now = this.now();
        const { select, drop, touch } = this.statements;
        this.db.transaction(() => {
          for (const { name, hash } of tools) {
            const row = select.get(model, name, hash);
            if (!row) continue;
            const vector = decode(row);
            if (!vector) {
              drop.run(model, name, hash);
              continue;
            }
            touch.run(now, model, name, hash);
            found.push({ name, hash, vector });
          }
        })();
        return found;
      },
      () => [],
    );
  }

  /** Stores vectors (replacing rows of the same key); the first save of a process, and every PRUNE_EVERY_SAVES, prunes. */
  save(model: string, vectors: readonly ToolVector[]): void {
    const write = () => {
      const now = this.now();
      const { insert } = this.statements;
      this.db.transaction(() => {
        for (const { name, hash, vector } of vectors) {
          if (vector.length < 1 || vector.length > MAX_STORED_DIMENSIONS) continue;
          const bytes = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
          insert.run(model, name, hash, vector.length, bytes, now);
        }
      })();
    };
    // Into the new file when the old one turned out damaged.
    this.guard(write, write);
    if (this.saves++ % PRUNE_EVERY_SAVES === 0) this.prune();
  }

  /** Drops every vector of `model`. */
  forget(model: string): void {
    this.guard(
      () => void this.db.prepare('DELETE FROM tool_embeddings WHERE model = ?').run(model),
      () => undefined,
    );
  }

  /**
   * Rows unused for UNUSED_VECTOR_MS go, then the least recently used past the bounds on rows (MAX_CACHED_VECTORS)
   * and on numbers (MAX_CACHED_NUMBERS).
   */
  prune(): void {
    this.guard(
      () =>
        this.db.transaction(() => {
          this.db.prepare('DELETE FROM tool_embeddings WHERE used_at < ?').run(this.now() - UNUSED_VECTOR_MS);
          // Newest first, a use time at a time (a save's rows share one): the first time past either bound is where
          // the older rows start to go (all of that time's rows, so the cache ends a little under the bound).
          const times = this.db
            .prepare(
              'SELECT used_at, COUNT(*) AS count, TOTAL(dimensions) AS numbers FROM tool_embeddings GROUP BY used_at ORDER BY used_at DESC',
            )
            .iterate() as IterableIterator<{ used_at: number; count: number; numbers: number }>;
          let rows = 0;
          let numbers = 0;
          let cutoff: number | null = null;
          for (const time of times) {
            rows += time.count;
            numbers += time.numbers;
            if (rows > this.maxRows || numbers > this.maxNumbers) {
              cutoff = time.used_at;
              break;
            }
          }
          if (cutoff !== null) this.db.prepare('DELETE FROM tool_embeddings WHERE used_at <= ?').run(cutoff);
        })(),
      () => undefined,
    );
  }

  /** How many rows the cache holds (tests, the bench). */
  size(): number {
    return Number(this.db.prepare('SELECT COUNT(*) FROM tool_embeddings').pluck().get());
  }

  /** How many numbers its rows hold together (tests). */
  numbers(): number {
    return Number(this.db.prepare('SELECT COALESCE(SUM(dimensions), 0) FROM tool_embeddings').pluck().get());
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  // Runs `work`; when SQLite finds the file damaged, sets it aside, starts a new one and runs `instead` there.
  private guard<T>(work: () => T, instead: () => T): T {
    try {
      return work();
    } catch (error) {
      if (!isDamage(error) || this.file === undefined) throw error;
      this.close();
      setAside(this.file);
      this.db = open(this.file);
      this.statements = prepare(this.db);
      return instead();
    }
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
