// Which processes have the history open (docs/robustness.md, "The app's own files"): each holds a shared lock on a
// small companion file for as long as its store is open, and the kernel drops it when the process dies, kill -9
// included. Only a process that finds no other holder may run crash recovery: another live process's streaming
// answer, running calls and process groups are not leftovers.
import fs from 'node:fs';
import Database from 'better-sqlite3';

/** The companion file of a history file. */
export function liveLockPath(historyFile: string): string {
  return `${historyFile}-live`;
}

/** A held shared lock on the companion file; `alone` says whether no other process held it when it was taken. */
export interface LiveLock {
  alone: boolean;
  release(): void;
}

/** Takes the lock: first asks for it alone (EXCLUSIVE, without waiting), then holds it shared until released. */
export function takeLiveLock(historyFile: string): LiveLock {
  const db = new Database(liveLockPath(historyFile));
  try {
    fs.chmodSync(liveLockPath(historyFile), 0o600);
    db.pragma('busy_timeout = 0');
    // A rollback journal: its locks are the file locks SQLite takes on the file itself (WAL would keep them in -shm).
    db.pragma('journal_mode = DELETE');
    let alone = true;
    try {
      db.exec('BEGIN EXCLUSIVE; COMMIT');
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
      alone = false;
    }
    // A read transaction holds SHARED until it ends: every other opener's EXCLUSIVE fails while this process lives.
    db.exec('BEGIN');
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return {
      alone,
      release() {
        if (db.open) db.close();
      },
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
