// Watches the scan folders so a tool dropped in, changed or removed is picked up within seconds.
//
// Two layers: fs.watch answers within the debounce; a poll every `pollMs` calls `onChange` regardless.
// The poll covers what events miss: a scan folder created later (fs.watch needs an existing folder),
// a folder deleted and re-created, changes deeper than the watches reach, and exhausted inotify
// watches. `onChange` is expected to be cheap when nothing changed (the source compares fingerprints).
//
// Recursive watching only where the OS does it in one handle (macOS, Windows). On Linux Node's recursive
// watch walks the whole tree synchronously on the main thread and takes one inotify watch per file, with
// none of the scan's bounds: a cloned repository with 250,000 empty files in its tool folder froze start-up
// for 12 s, added 400 MB and took every inotify watch the user had, so other programs failed with ENOSPC
// (docs/robustness.md, "Script tools"). There the scan folder and at most MAX_WATCHED_SUBFOLDERS of its
// folders (the tool folders) are watched, each on its own; deeper changes wait for the poll.
import fs from 'node:fs';
import path from 'node:path';

/** Timings of the watcher. */
export interface DirWatchOptions {
  /** Quiet time after the last fs event before `onChange` (default 200 ms). */
  debounceMs?: number;
  /** Fallback rescan interval (default 2 s). */
  pollMs?: number;
  /** Told when fs.watch cannot be used on a folder (polling still covers it). */
  onWatchError?: (dir: string, error: unknown) => void;
}

/** Default quiet time after fs events. */
export const WATCH_DEBOUNCE_MS = 200;

/** Default fallback rescan interval. */
export const WATCH_POLL_MS = 2000;

/** Where one handle watches a whole tree (FSEvents, ReadDirectoryChangesW). */
const NATIVE_RECURSIVE = process.platform === 'darwin' || process.platform === 'win32';

/** The most sub-folders of one scan folder watched on their own where watching is not natively recursive. */
export const MAX_WATCHED_SUBFOLDERS = 256;

/** The most entries of a scan folder looked through for its sub-folders (as the scan reads at most). */
const MAX_LISTED_ENTRIES = 20_000;

/** Watches `dirs` (which may not exist yet); calls `onChange` after changes and on every poll; returns the stop. */
export function watchDirs(
  dirs: readonly string[],
  onChange: () => void,
  options: DirWatchOptions = {},
): () => void {
  const debounceMs = options.debounceMs ?? WATCH_DEBOUNCE_MS;
  const watchers = new Map<string, { watcher: fs.FSWatcher; ino: number }>();
  let debounce: NodeJS.Timeout | undefined;
  let stopped = false;

  const changed = (): void => {
    if (stopped) return;
    clearTimeout(debounce);
    // A tool folder added or removed changes what is watched too.
    debounce = setTimeout(() => {
      if (stopped) return;
      sync();
      onChange();
    }, debounceMs);
    debounce.unref();
  };

  const unwatch = (dir: string): void => {
    watchers.get(dir)?.watcher.close();
    watchers.delete(dir);
  };

  // Starts, keeps or drops the watcher of each folder as it now exists.
  const sync = (): void => {
    const wanted = new Set<string>();
    for (const dir of dirs) {
      if (directoryInode(dir) === null) continue;
      wanted.add(dir);
      if (!NATIVE_RECURSIVE) for (const sub of subfolders(dir)) wanted.add(sub);
    }
    for (const dir of [...watchers.keys()]) if (!wanted.has(dir)) unwatch(dir);
    for (const dir of wanted) {
      const ino = directoryInode(dir);
      const current = watchers.get(dir);
      if (current && current.ino === ino) continue;
      if (current) unwatch(dir);
      if (ino === null) continue;
      const watcher = openWatcher(dir, changed, options.onWatchError);
      if (!watcher) continue;
      // A folder removed under its watcher reports an error (or goes quiet): the poll re-creates it.
      watcher.on('error', () => {
        unwatch(dir);
        changed();
      });
      watchers.set(dir, { watcher, ino });
    }
  };

  sync();
  const poll = setInterval(() => {
    sync();
    onChange();
  }, options.pollMs ?? WATCH_POLL_MS);
  poll.unref();

  return () => {
    stopped = true;
    clearInterval(poll);
    clearTimeout(debounce);
    for (const dir of [...watchers.keys()]) unwatch(dir);
  };
}

function openWatcher(
  dir: string,
  listener: () => void,
  onError?: (dir: string, error: unknown) => void,
): fs.FSWatcher | null {
  try {
    return fs.watch(dir, { recursive: NATIVE_RECURSIVE, persistent: false }, listener);
  } catch (error) {
    onError?.(dir, error);
    return null;
  }
}

// The first MAX_WATCHED_SUBFOLDERS real folders in `dir` (never a link: one could lead anywhere), by name.
function subfolders(dir: string): string[] {
  const found: string[] = [];
  let handle: fs.Dir | null = null;
  try {
    handle = fs.opendirSync(dir);
    for (let read = 0; read < MAX_LISTED_ENTRIES; read++) {
      const entry = handle.readSync();
      if (entry === null) break;
      if (entry.isDirectory()) found.push(entry.name);
    }
  } catch {
    // Gone or unreadable meanwhile: the poll tries again.
  } finally {
    handle?.closeSync();
  }
  return found
    .sort()
    .slice(0, MAX_WATCHED_SUBFOLDERS)
    .map((name) => path.join(dir, name));
}

function directoryInode(dir: string): number | null {
  try {
    const stat = fs.statSync(dir);
    return stat.isDirectory() ? stat.ino : null;
  } catch {
    return null;
  }
}
