// Writes a file so that readers (and a crash) see the old or the new content, never a half-written one.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Where and how the file is created. */
export interface AtomicWriteOptions {
  /** The new file's exact mode (applied before any content is visible); default 0600. */
  mode?: number;
  /** Mode for a folder that has to be created; default from the umask. */
  dirMode?: number;
}

/** Writes `text` to a temp file beside `file`, flushes it, sets its mode, then renames it over `file`. */
export async function writeFileAtomic(
  file: string,
  text: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const mode = options.mode ?? 0o600;
  await fs.mkdir(path.dirname(file), {
    recursive: true,
    ...(options.dirMode ? { mode: options.dirMode } : {}),
  });
  // A dot-prefixed temp name, so folder scanners (script tools) skip it.
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const handle = await fs.open(temp, 'wx', mode);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    // The umask may have narrowed the mode given to open(); set it exactly.
    await fs.chmod(temp, mode);
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/**
 * Best-effort synchronous write of a cache file (a temp file beside it, then a rename, so a reader never sees half a
 * file): true when written. A cache that cannot be written (no space, a file where its folder should be, no
 * permission) only costs the next start its work, so nothing here throws.
 */
export function writeCacheFileSync(file: string, text: string): boolean {
  // A fresh name, created exclusively: never a file or link that was already there.
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
    renameSync(temp, file);
    return true;
  } catch {
    try {
      rmSync(temp, { force: true });
    } catch {
      // The temp file could not have been created either.
    }
    return false;
  }
}
