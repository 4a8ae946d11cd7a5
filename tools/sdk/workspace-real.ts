// Where a workspace path really leads: the lexical check (no `..` out, no absolute path elsewhere) and the walk
// of existing folders by lstat, which lets a symlink through only when its real target stays in the workspace
// (docs/security.md, "Files the tools write"). Shared by the safe writer and the safe reader.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from './types';

/** A workspace path split into its real root and its normalised parts below it. */
export interface WorkspacePath {
  /** The workspace as given, resolved (what messages and results show). */
  shownRoot: string;
  /** The workspace's real path (symlinks resolved). */
  root: string;
  /** The path's parts below the workspace, without `.`, `..` or empty parts; never empty. */
  parts: string[];
  /** The absolute path under the workspace as given (for messages and results). */
  shown: string;
}

/** A path problem, naming the parameter: `..` or an absolute path out, a NUL byte, the workspace itself. */
export function pathError(parameter: string, message: string, code = 'invalid_arguments'): ToolError {
  return new ToolError(code, `\`${parameter}\` ${message}`, { parameter });
}

/** Splits `relative` against the workspace; refuses anything that leaves it by text alone (before any I/O on it). */
export async function workspacePath(
  workspace: string,
  relative: string,
  parameter: string,
): Promise<WorkspacePath> {
  const shownRoot = path.resolve(workspace);
  if (relative.trim() === '')
    throw pathError(parameter, 'must be a path relative to the workspace, e.g. "reports/summary.md"');
  if (relative.includes('\0')) throw pathError(parameter, 'must not contain a NUL character');
  const root = await fs.realpath(shownRoot).catch(() => {
    throw new ToolError('no_workspace', `the workspace ${shownRoot} does not exist`);
  });
  // The text is resolved first, so `link/..` never reaches the kernel (which would follow `link`).
  const target = path.resolve(shownRoot, relative);
  const base = [shownRoot, root].find((candidate) => inside(candidate, target));
  if (base === undefined || target === base)
    throw pathError(parameter, `must stay inside the workspace ${shownRoot}`);
  const parts = path.relative(base, target).split(path.sep);
  return { shownRoot, root, parts, shown: path.join(shownRoot, ...parts) };
}

/** Whether `target` is `root` or below it (both absolute and normalised). */
export function inside(root: string, target: string): boolean {
  if (target === root) return true;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  return target.startsWith(prefix);
}

/**
 * The real folder `parts` leads to, checked one level at a time: a symlink is followed only when its real target
 * stays inside `root`; anything else is refused with the reason. With `create`, missing folders are made here
 * (mkdir never follows a final symlink: a link put there meanwhile makes it fail, and the next lstat judges it).
 * Without `create`, the walk stops at the first missing folder and returns null for it.
 */
export async function realFolder(
  where: WorkspacePath,
  folderParts: string[],
  parameter: string,
  create: boolean,
): Promise<string | null> {
  let current = where.root;
  for (const [index, part] of folderParts.entries()) {
    const next = path.join(current, part);
    const shown = folderParts.slice(0, index + 1).join(path.sep);
    let stat = await fs.lstat(next).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (stat === null) {
      if (!create) return null;
      await fs.mkdir(next).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      stat = await fs.lstat(next);
    }
    if (stat.isSymbolicLink()) {
      const real = await fs.realpath(next).catch(() => null);
      if (real === null)
        throw pathError(parameter, `goes through the broken symlink ${shown}; nothing was written`);
      if (!inside(where.root, real)) throw symlinkOut(parameter, shown, real);
      if (!(await fs.stat(real)).isDirectory())
        throw pathError(parameter, `goes through ${shown}, which is not a folder`);
      current = real;
    } else if (stat.isDirectory()) {
      current = next;
    } else {
      throw pathError(parameter, `goes through ${shown}, which is not a folder`);
    }
  }
  return current;
}

/** The error for a symlink whose real target is outside the workspace. */
export function symlinkOut(parameter: string, shown: string, real: string): ToolError {
  return new ToolError(
    'outside_workspace',
    `\`${parameter}\` leads out of the workspace through the symlink ${shown} (to ${real}); nothing was written or read there`,
    { parameter, symlink: shown, target: real },
  );
}
