// Watches the scan folders so a tool dropped in, changed or removed is picked up within seconds.
//
// Two layers: fs.watch (recursive: Node 20 supports it on Linux, checked on 20.20, where it follows
// new sub-folders) answers within the debounce; a poll every `pollMs` calls `onChange` regardless.
// The poll covers what events miss: a scan folder created later (fs.watch needs an existing folder),
// a folder deleted and re-created, platforms without recursive watching, and exhausted inotify
// watches. `onChange` is expected to be cheap when nothing changed (the source compares fingerprints).
import fs from 'node:fs';

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
    debounce = setTimeout(onChange, debounceMs);
    debounce.unref();
  };

  const unwatch = (dir: string): void => {
    watchers.get(dir)?.watcher.close();
    watchers.delete(dir);
  };

  // Starts, keeps or drops the watcher of each folder as it now exists.
  const sync = (): void => {
    for (const dir of dirs) {
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
    return fs.watch(dir, { recursive: true, persistent: false }, listener);
  } catch (recursiveError) {
    // ERR_FEATURE_UNAVAILABLE_ON_PLATFORM on older Node: the folder itself still reports adds and removes.
    try {
      return fs.watch(dir, { persistent: false }, listener);
    } catch {
      onError?.(dir, recursiveError);
      return null;
    }
  }
}

function directoryInode(dir: string): number | null {
  try {
    const stat = fs.statSync(dir);
    return stat.isDirectory() ? stat.ino : null;
  } catch {
    return null;
  }
}
