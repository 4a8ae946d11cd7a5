// The one safe writer of every tool that writes a file the model named (write_result, html_template,
// download_file, generate_image, generate_audio): the file lands inside the workspace or nowhere
// (docs/security.md, "Files the tools write").
//  - the workspace is resolved with realpath, and missing folders are made one level at a time; a symlinked
//    folder is followed only when its real target stays inside;
//  - the content goes to a temp file created exclusively (O_EXCL | O_NOFOLLOW) in the real folder, whose
//    opened descriptor is checked again (/proc/self/fd on Linux, its inode elsewhere) before a byte is written;
//  - the temp file then takes the name with link() (fails when the name exists, never follows a final
//    symlink) or, with overwrite, rename() (replaces a symlink, hard link or fifo there, never writes through
//    it). A folder swapped for a symlink meanwhile makes both fail, as the temp file is no longer found.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';
import path from 'node:path';
import { protectedWriteError, realpathLoose } from './protected-write';
import { ToolError } from './types';
import type { WorkspacePath } from './workspace-real';
import { inside, pathError, realFolder, workspacePath } from './workspace-real';

/** Where to write. */
export interface SafeWriteTarget {
  workspace: string;
  /** The path as the model gave it, relative to the workspace (or absolute inside it). */
  path: string;
  /** The parameter that named it, for messages. */
  parameter: string;
  /** Replace an existing file (or symlink, which is replaced, never followed). */
  overwrite: boolean;
}

/** What was written. */
export interface SafeWriteResult {
  /** The absolute path under the workspace as given. */
  path: string;
  /** Where the file really is. */
  realPath: string;
  bytes: number;
}

/** Content to write: text (UTF-8), bytes, or a function that writes through the opened handle. */
export type SafeWriteContent = string | Uint8Array | ((handle: FileHandle) => Promise<void>);

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * Checks, before any work is spent, that `target` could be written: it stays inside the workspace through every
 * existing folder, and (without overwrite) nothing is there yet. Returns the absolute path under the workspace.
 */
export async function checkWritable(target: SafeWriteTarget): Promise<string> {
  const where = await workspacePath(target.workspace, target.path, target.parameter);
  const folder = await realFolder(where, where.parts.slice(0, -1), target.parameter, false);
  await assertNotProtected(where, folder, target.parameter);
  if (folder !== null && !target.overwrite) await assertAbsent(folder, where, target);
  return where.shown;
}

/** Writes `content` to `target` inside the workspace, or throws saying why not; never leaves a temp file. */
export async function safeWriteFile(
  target: SafeWriteTarget,
  content: SafeWriteContent,
  signal?: AbortSignal,
): Promise<SafeWriteResult> {
  signal?.throwIfAborted();
  const where = await workspacePath(target.workspace, target.path, target.parameter);
  // Judged before any folder is made, by the text and the existing folders; then again where it really is.
  await realFolder(where, where.parts.slice(0, -1), target.parameter, false);
  await assertNotProtected(where, null, target.parameter);
  const folder = (await realFolder(where, where.parts.slice(0, -1), target.parameter, true)) as string;
  await assertNotProtected(where, folder, target.parameter);
  const name = where.parts[where.parts.length - 1] as string;
  const final = path.join(folder, name);
  if (!target.overwrite) await assertAbsent(folder, where, target);
  // Short and dot-prefixed: within NAME_MAX whatever the name, and folder scanners skip it.
  const temp = path.join(folder, `.agenvoy-${randomBytes(6).toString('hex')}.part`);
  const handle = await fs.open(temp, CREATE_FLAGS, 0o666);
  let bytes = 0;
  let placed = false;
  try {
    await assertOpenedInside(handle, temp, where.root, target.parameter);
    if (typeof content === 'function') await content(handle);
    else await handle.writeFile(content, signal ? { signal } : {});
    signal?.throwIfAborted();
    bytes = (await handle.stat()).size;
    await place(temp, final, where, target);
    placed = true;
  } finally {
    // The handle stays open until here, so a temp file whose folder was moved meanwhile can still be found.
    if (!(placed && target.overwrite)) await removeTemp(handle, temp, where.root);
    await handle.close();
  }
  return { path: where.shown, realPath: final, bytes };
}

// Refuses a protected place: the path as written, and where its existing folders really lead (docs/security.md);
// `folder` is the file's real folder once it exists.
async function assertNotProtected(where: WorkspacePath, folder: string | null, parameter: string) {
  // A final symlink is never written through (it is replaced as a name), so the name is judged, not its target.
  const name = where.parts[where.parts.length - 1] as string;
  const real =
    folder === null
      ? path.join(await realpathLoose(path.join(where.root, ...where.parts.slice(0, -1))), name)
      : path.join(folder, name);
  // A real path outside the workspace is refused by the walk and the descriptor check, with their own words.
  const error = protectedWriteError(parameter, where.parts, inside(where.root, real) ? real : where.shown);
  if (error) throw error;
}

async function place(temp: string, final: string, where: WorkspacePath, target: SafeWriteTarget) {
  if (target.overwrite) {
    await fs.rename(temp, final).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EISDIR' || error.code === 'ENOTEMPTY' || error.code === 'EEXIST')
        throw pathError(target.parameter, `names a folder: ${where.shown}; nothing was written`);
      throw error;
    });
    return;
  }
  try {
    await fs.link(temp, final);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw await existsError(final, where, target);
    // A file system without hard links: reserve the name exclusively, then rename over the reservation.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    const reserved = await fs
      .open(final, CREATE_FLAGS, 0o666)
      .catch(async (failure: NodeJS.ErrnoException) => {
        if (failure.code === 'EEXIST' || failure.code === 'ELOOP')
          throw await existsError(final, where, target);
        throw failure;
      });
    await reserved.close();
    await fs.rename(temp, final);
  }
}

async function assertAbsent(folder: string, where: WorkspacePath, target: SafeWriteTarget): Promise<void> {
  const final = path.join(folder, where.parts[where.parts.length - 1] as string);
  const there = await fs.lstat(final).then(
    () => true,
    () => false,
  );
  if (there) throw await existsError(final, where, target);
}

async function existsError(final: string, where: WorkspacePath, target: SafeWriteTarget): Promise<ToolError> {
  const stat = await fs.lstat(final).catch(() => null);
  const shown = where.parts.join(path.sep);
  const details = { path: shown, parameter: target.parameter };
  if (stat?.isSymbolicLink()) {
    return new ToolError(
      'exists',
      `${shown} is a symlink, and a symlink is never written through; pass overwrite=true to replace the link itself with a file`,
      details,
    );
  }
  if (stat?.isDirectory())
    return pathError(target.parameter, `names a folder: ${where.shown}; nothing was written`);
  return new ToolError('exists', `${shown} already exists; pass overwrite=true to replace it`, details);
}

// Removes our temp file by name when the name still is that file, else (Linux) where the kernel says it now is,
// if that is inside the workspace and still the same file.
async function removeTemp(handle: FileHandle, temp: string, root: string): Promise<void> {
  const opened = await handle.stat().catch(() => null);
  if (!opened) return;
  const same = (stat: { ino: number; dev: number } | null) =>
    stat !== null && stat.ino === opened.ino && stat.dev === opened.dev;
  if (same(await fs.lstat(temp).catch(() => null))) {
    await fs.rm(temp, { force: true });
    return;
  }
  if (process.platform !== 'linux') return;
  const now = await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
  if (now === null || !inside(root, now) || path.basename(now) !== path.basename(temp)) return;
  if (same(await fs.lstat(now).catch(() => null))) await fs.rm(now, { force: true });
}

/** Checks that an opened file really is where we meant, inside the real workspace; removes it when not. */
async function assertOpenedInside(
  handle: FileHandle,
  expected: string,
  root: string,
  parameter: string,
): Promise<void> {
  const opened = await handle.stat();
  const here = await fs.lstat(expected).catch(() => null);
  const sameFile = here !== null && here.ino === opened.ino && here.dev === opened.dev;
  // On Linux the kernel says where the descriptor points, whatever happened to the path meanwhile.
  const real =
    process.platform === 'linux'
      ? await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => null)
      : await fs.realpath(path.dirname(expected)).then(
          (folder) => path.join(folder, path.basename(expected)),
          () => null,
        );
  // Where the kernel put it must not be a protected place either (a folder swapped for a link to `.git`).
  const protectedPlace =
    real === null ? null : protectedWriteError(parameter, [], real.replace(/ \(deleted\)$/, ''));
  if (sameFile && real !== null && inside(root, real) && !protectedPlace) return;
  // The folder was swapped for a symlink between the check and the open: the empty temp file we just created
  // exclusively is removed (only if it still is that file), and nothing is written.
  if (real !== null && !real.endsWith(' (deleted)')) {
    const there = await fs.lstat(real).catch(() => null);
    if (there && there.ino === opened.ino && there.dev === opened.dev) await fs.rm(real, { force: true });
  }
  // Outside the workspace is said as such; a protected place inside it by its reason.
  if (protectedPlace && real !== null && inside(root, real)) throw protectedPlace;
  throw new ToolError(
    'outside_workspace',
    `\`${parameter}\` was moved out of the workspace while it was being written (a folder on the way became a symlink); nothing was written`,
    { parameter },
  );
}
