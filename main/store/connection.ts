// Opening the history database with the durability settings of docs/agent-loop.md ("What is saved, and when"): WAL, synchronous=FULL, foreign keys.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/** How hard a commit waits for the disk: FULL syncs the WAL on every commit, NORMAL only at checkpoints. */
export type SyncMode = 'full' | 'normal';

/** Options of `openDatabase`. */
export interface OpenOptions {
  /** FULL by default; NORMAL exists only as the benchmark's reference. */
  synchronous?: SyncMode;
  /** How long a write waits for another connection's lock before failing. */
  busyTimeoutMs?: number;
}

/** The pragmas that decide durability, as read back from SQLite. */
export interface DurabilitySettings {
  journalMode: string;
  /** 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA. */
  synchronous: number;
  foreignKeys: boolean;
  busyTimeoutMs: number;
}

/** Default wait for a lock held by another connection (a second app instance, a backup tool). */
export const BUSY_TIMEOUT_MS = 5000;

/** Opens (creating it and its folder if needed) a database file with WAL, the sync mode, foreign keys and a busy timeout. */
export function openDatabase(file: string, options: OpenOptions = {}): Database.Database {
  // The history holds private conversations: keep the folder and file to the user.
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = new Database(file);
  try {
    // SQLite gives the -wal and -shm files the main file's mode, so this covers all three.
    fs.chmodSync(file, 0o600);
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? BUSY_TIMEOUT_MS}`);
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (String(mode).toLowerCase() !== 'wal')
      throw new Error(`could not switch ${file} to WAL (journal_mode=${mode})`);
    db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    db.pragma('foreign_keys = ON');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Reads back the durability pragmas of an open database. */
export function durabilitySettings(db: Database.Database): DurabilitySettings {
  return {
    journalMode: String(db.pragma('journal_mode', { simple: true })),
    synchronous: Number(db.pragma('synchronous', { simple: true })),
    foreignKeys: Number(db.pragma('foreign_keys', { simple: true })) === 1,
    busyTimeoutMs: Number(db.pragma('busy_timeout', { simple: true })),
  };
}
