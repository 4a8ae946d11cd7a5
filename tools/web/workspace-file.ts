// Files the web tools save: inside the workspace only, written whole (temp file, then link or rename), never
// replacing an existing file unless asked.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../types';
import { invalidArgument } from './arguments';

/** The absolute target of a workspace-relative path; an error naming `param` when it leaves the workspace. */
export async function workspaceTarget(workspace: string, relative: string, param: string): Promise<string> {
  if (!relative)
    throw invalidArgument(param, 'must be a path relative to the workspace, e.g. "downloads/report.pdf"');
  const root = path.resolve(workspace);
  const target = path.resolve(root, relative);
  if (!inside(root, target) || target === root) {
    throw invalidArgument(param, `must stay inside the workspace ${root}`);
  }
  // A symlinked folder on the way could lead out of the workspace: judge the real path of what exists.
  const realRoot = await fs.realpath(root).catch(() => root);
  let existing = path.dirname(target);
  while (!(await exists(existing)) && existing !== path.dirname(existing)) existing = path.dirname(existing);
  const realExisting = await fs.realpath(existing).catch(() => existing);
  if (!inside(realRoot, realExisting))
    throw invalidArgument(param, `leads out of the workspace through a symlink`);
  return target;
}

/** Throws `exists` when the target is there and may not be replaced. */
export async function assertFree(target: string, overwrite: boolean, shown: string): Promise<void> {
  if (!overwrite && (await exists(target))) {
    throw new ToolError('exists', `${shown} already exists; pass overwrite=true to replace it`, {
      path: shown,
    });
  }
}

/** Writes through `write(tempPath)` and then puts the file in place; the temp file never outlives a failure. */
export async function saveFile(
  target: string,
  overwrite: boolean,
  shown: string,
  write: (tempPath: string) => Promise<void>,
): Promise<void> {
  await fs.mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${randomBytes(4).toString('hex')}.part`;
  try {
    await write(temp);
    if (overwrite) {
      await fs.rename(temp, target);
      return;
    }
    // link() fails when the name exists, so a file created meanwhile is never replaced.
    await fs.link(temp, target).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') {
        throw new ToolError('exists', `${shown} already exists; pass overwrite=true to replace it`, {
          path: shown,
        });
      }
      throw error;
    });
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/** The first of `base`, `base-2`, `base-3`, … (before the extension) that does not exist yet. */
export async function freeName(target: string): Promise<string> {
  const ext = path.extname(target);
  const stem = target.slice(0, target.length - ext.length);
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? target : `${stem}-${n}${ext}`;
    if (!(await exists(candidate))) return candidate;
  }
}

/** A short file-name stem from free text, e.g. "a red fox at dawn" → "a-red-fox-at-dawn". */
export function slug(text: string, fallback: string): string {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const joined = words.slice(0, 6).join('-').slice(0, 40).replace(/-+$/, '');
  return joined || fallback;
}

function inside(root: string, target: string): boolean {
  return target === root || target.startsWith(root + path.sep);
}

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}
