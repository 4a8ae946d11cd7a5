// Repositories a workspace carries (docs/security.md): a nested `.git` folder or file, a bare-repository-shaped
// folder (HEAD, objects/, refs/ as plain files: a downloaded archive or a committed fixture), and submodules under
// `.git/modules`. Their config can name programs too; the search is bounded in depth and in entries read.
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

// How much of a `.git` file is read: its `gitdir:` line comes first.
const GIT_FILE_BYTES = 64 * 1024;

/** Bounds of one search. */
export const EMBEDDED_LIMITS = { depth: 4, entries: 4000, repositories: 16 };

// Folders that hold dependencies or git's own data, never a repository git would act on from the workspace.
const SKIPPED = new Set(['node_modules', 'objects', 'refs', 'logs', 'lfs', 'hooks', 'info']);

/** The git folders found under `root` (and under each found `.git/modules`), real paths, without duplicates. */
export async function embeddedRepositories(root: string): Promise<string[]> {
  const found = new Set<string>();
  let entries = 0;
  let level: string[] = [root];
  for (let depth = 0; depth <= EMBEDDED_LIMITS.depth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (entries >= EMBEDDED_LIMITS.entries || found.size >= EMBEDDED_LIMITS.repositories) return [...found];
      const list = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      entries += list.length;
      const names = new Set(list.map((entry) => entry.name));
      if (names.has('HEAD') && names.has('objects') && names.has('refs')) found.add(await real(dir));
      for (const entry of list) {
        const full = path.join(dir, entry.name);
        if (entry.name === '.git') {
          // git follows a `.git` symlink as it follows a `.git` folder.
          const stat = entry.isSymbolicLink() ? await fs.stat(full).catch(() => null) : entry;
          const gitDir = stat?.isFile() ? await gitFileTarget(full) : stat?.isDirectory() ? full : null;
          if (gitDir) {
            found.add(await real(gitDir));
            next.push(path.join(gitDir, 'modules'));
          }
        } else if (entry.isDirectory() && !SKIPPED.has(entry.name)) next.push(full);
      }
    }
    level = next;
  }
  return [...found];
}

/** Where a `.git` file (`gitdir: <path>`) points, or null. */
export async function gitFileTarget(file: string): Promise<string | null> {
  const text = await readHead(file);
  // Line by line and trimmed, not with a regular expression: the file is the repository's, and a lazy match
  // with trailing blanks takes time in the square of its length.
  const line = text.split('\n').find((candidate) => candidate.startsWith('gitdir:'));
  const target = line?.slice('gitdir:'.length).trim();
  // A longer path names nothing the kernel would open (PATH_MAX), so git cannot use it either.
  if (!target || target.length > 4096) return null;
  return path.resolve(path.dirname(file), target);
}

async function real(dir: string): Promise<string> {
  return fs.realpath(dir).catch(() => dir);
}

// The start of a regular file (a FIFO or a device named `.git` would block or never end), or ''.
async function readHead(file: string): Promise<string> {
  const stat = await fs.stat(file).catch(() => null);
  if (!stat?.isFile()) return '';
  // Opened without blocking and checked again: a fifo swapped in since the stat must not hold the check for good.
  const handle = await fs.open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)).catch(() => null);
  if (!handle) return '';
  try {
    if (!(await handle.stat()).isFile()) return '';
    const buffer = Buffer.alloc(GIT_FILE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch {
    return '';
  } finally {
    await handle.close();
  }
}
