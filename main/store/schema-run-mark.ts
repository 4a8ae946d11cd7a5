// Schema v5: each recorded process group's run mark, so crash recovery also kills the processes that left the group
// (setsid, a double fork) and carry it (docs/dispatch.md, "Process-tree kill").
import type Database from 'better-sqlite3';

/** Adds the process groups' run_mark column (migration 5). */
export function runMarkSchema(db: Database.Database): void {
  db.exec('ALTER TABLE process_groups ADD COLUMN run_mark TEXT');
}
