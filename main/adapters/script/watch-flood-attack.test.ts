// A cloned repository whose tool folder holds a flood of files (docs/robustness.md, "Script tools"): on Linux, Node's
// recursive fs.watch walks the whole tree synchronously on the app's main thread and takes one inotify watch per file,
// with none of the scan's bounds. 250,000 empty files in `.config/agenvoy/tools/script/_shared/` froze start-up for
// 12 s, added 400 MB and took every inotify watch of the user, so other programs got ENOSPC. The watcher now watches
// the scan folder and a bounded number of its folders; a change in a tool folder is still seen at once, and deeper
// ones by the poll. The watches are counted from /proc, as the kernel holds them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_WATCHED_SUBFOLDERS, watchDirs } from './dir-watcher';

const linux = process.platform === 'linux';
let root: string;
let stops: Array<() => void>;

// The inotify watches this process holds, summed over its inotify descriptors.
function inotifyWatches(): number {
  let count = 0;
  for (const fd of fs.readdirSync('/proc/self/fdinfo')) {
    let info: string;
    try {
      info = fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
    } catch {
      continue; // the listing's own descriptor, closed since
    }
    count += info.split('\n').filter((line) => line.startsWith('inotify wd:')).length;
  }
  return count;
}

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-watch-flood-')));
  stops = [];
});
afterEach(() => {
  for (const stop of stops) stop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe.runIf(linux)('watching a tool folder flooded with files', () => {
  it('takes a bounded number of watches, not one per file or folder', () => {
    const scan = path.join(root, 'script');
    // 400 folders of 40 files, and one helper folder nested 30 deep: 16,000 files, 430 folders.
    for (let d = 0; d < 400; d++) {
      const dir = path.join(scan, `_pad${String(d).padStart(3, '0')}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 40; f++) fs.writeFileSync(path.join(dir, `f${f}`), '');
    }
    fs.mkdirSync(path.join(scan, '_deep', ...Array.from({ length: 30 }, (_, i) => `d${i}`)), {
      recursive: true,
    });
    const before = inotifyWatches();
    stops.push(watchDirs([scan], () => undefined, { pollMs: 60_000 }));
    const taken = inotifyWatches() - before;
    expect(taken).toBeGreaterThan(0);
    expect(taken).toBeLessThanOrEqual(1 + MAX_WATCHED_SUBFOLDERS);
  });

  it('still sees a change in a tool folder at once, and a new tool folder and its files', async () => {
    const scan = path.join(root, 'script');
    fs.mkdirSync(path.join(scan, 'lint'), { recursive: true });
    let changes = 0;
    stops.push(watchDirs([scan], () => changes++, { pollMs: 60_000, debounceMs: 20 }));
    fs.writeFileSync(path.join(scan, 'lint', 'tool.json'), '{}');
    await expect.poll(() => changes, { timeout: 5000 }).toBeGreaterThan(0);
    // A folder added now is watched after its own event (the poll is a minute away).
    fs.mkdirSync(path.join(scan, 'fmt'));
    const seen = changes;
    await expect.poll(() => changes, { timeout: 5000 }).toBeGreaterThan(seen);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const next = changes;
    fs.writeFileSync(path.join(scan, 'fmt', 'script.js'), '');
    await expect.poll(() => changes, { timeout: 5000 }).toBeGreaterThan(next);
  });
});
