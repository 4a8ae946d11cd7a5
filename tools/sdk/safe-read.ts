// Reading a workspace file the model named (a template, a data file): inside the workspace by realpath, a
// regular file only (a fifo or device would hang or never end), with no other name (a hard link), not a secret file
// (`.env`, a key) whatever its link is called, and bounded in size (docs/security.md).
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { appFolderOf } from './protected-write';
import { sensitiveNameIn } from './sensitive-names';
import { ToolError } from './types';
import { inside, pathError, realFolder, symlinkOut, workspacePath } from './workspace-real';

/** A file read from the workspace. */
export interface WorkspaceText {
  /** The path below the workspace, with `/` separators (how templates name each other). */
  relative: string;
  /** Where the file really is. */
  realPath: string;
  text: string;
}

// O_NONBLOCK: opening a fifo returns at once instead of waiting for a writer; it is then refused as not a file.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Reads `relative` as UTF-8 text, at most `maxBytes`; a ToolError naming `parameter` says why it cannot. */
export async function readWorkspaceText(
  workspace: string,
  relative: string,
  parameter: string,
  maxBytes: number,
): Promise<WorkspaceText> {
  const where = await workspacePath(workspace, relative, parameter);
  const shown = where.parts.join('/');
  const missing = () =>
    new ToolError('not_found', `\`${parameter}\` ${shown} does not exist in the workspace`, {
      parameter,
    });
  const folder = await realFolder(where, where.parts.slice(0, -1), parameter, false);
  if (folder === null) throw missing();
  const final = path.join(folder, where.parts[where.parts.length - 1] as string);
  const stat = await fs.lstat(final).catch(() => null);
  if (stat === null) throw missing();
  let real = final;
  if (stat.isSymbolicLink()) {
    const resolved = await fs.realpath(final).catch(() => null);
    if (resolved === null) throw missing();
    if (!inside(where.root, resolved)) throw symlinkOut(parameter, shown, resolved);
    real = resolved;
  }
  secretFile(where.root, real, parameter, shown);
  const handle = await fs.open(real, READ_FLAGS).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP') throw pathError(parameter, `${shown} became a symlink while it was read`);
    throw error;
  });
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw pathError(parameter, `${shown} is not a regular file`);
    // A hard link is the same file under a second name: `notes.liquid` may be ~/.ssh/id_rsa, and its path, real
    // path and name all look innocent. Its other names cannot be found, so no file that has one is read
    // (docs/security.md, "Hard links"). Judged on the opened file: a link made after any check is seen too.
    if (opened.nlink > 1) throw hardLinkError(parameter, shown, opened.nlink);
    if (opened.size > maxBytes)
      throw pathError(parameter, `${shown} is larger than ${maxBytes.toLocaleString('en-US')} bytes`);
    if (process.platform === 'linux') {
      // Asked after fstat. The name opened must still be there: a hard link opened and then removed leaves the
      // secret's own name as the only one, so the count above read 1 (tools/sdk/safe-read-race-attack.test.ts).
      // A name alive now was alive when the count was read, so it was then the file's only name.
      const actual = await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
      if (actual === null || !inside(where.root, actual)) throw symlinkOut(parameter, shown, actual ?? real);
      secretFile(where.root, actual, parameter, shown);
      // A file really named "… (deleted)" is refused too: a link of that name made meanwhile would pass a look.
      if (actual.endsWith(DELETED))
        throw pathError(parameter, `${shown} was removed or replaced while it was read`);
    }
    // Read one byte past its size: a file that grew since fstat is refused, not cut.
    const buffer = Buffer.alloc(opened.size + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > opened.size) throw pathError(parameter, `${shown} changed while it was read`);
    return { relative: shown, realPath: real, text: buffer.subarray(0, length).toString('utf8') };
  } finally {
    await handle.close();
  }
}

// A secret file of the workspace (`.env`, a deploy key), as where the file really is names it: the gate asks for
// such a name in an argument, but not for an include behind a symlink called `footer.liquid`, and templates are
// read before the gate anyway (main/gate/template-secret-attack.test.ts). None is ever a template or JSON data.
function secretFile(root: string, real: string, parameter: string, shown: string): void {
  const parts = path.relative(root, real).split(path.sep);
  const app = appFolderOf(real);
  const label =
    sensitiveNameIn(parts) ??
    (app === null
      ? null
      : `in this app's own folder ${app} (AGENVOY_HOME: its secrets, servers, rules, chats)`);
  if (label !== null)
    throw new ToolError(
      'sensitive_path',
      `\`${parameter}\` ${shown} is ${label}${parts.join('/') === shown ? '' : ` (it leads to ${real})`}; ` +
        'secret files are never read as templates or data',
      { parameter },
    );
}

// What Linux adds to /proc/self/fd/N's target when the name the file was opened by is gone.
const DELETED = ' (deleted)';

/** The refusal of a file with more than one name: what it is, why, and how to read it anyway. */
export function hardLinkError(parameter: string, shown: string, names: number): ToolError {
  return new ToolError(
    'hard_link',
    `\`${parameter}\` ${shown} is a file with more than one name (a hard link, ${names} names): another name ` +
      'may be a secret file outside the workspace, so it is not read. If the person knows it is safe, they can ' +
      'make a copy of it (a file of its own) to use instead',
    { parameter, names },
  );
}
