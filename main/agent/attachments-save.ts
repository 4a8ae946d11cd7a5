// Copies checked attachments into the chat's workspace, under `attachments/` (docs/attachments.md, "Where copies
// go"): that folder must be a real folder of the workspace (a symlink there, as a hostile repository could plant, is
// refused), each file goes through the tools' one safe writer (realpath walk, protected places, a temp file created
// O_EXCL | O_NOFOLLOW and checked by descriptor, then link(): never over an existing name, never through a symlink),
// and a taken name gets a `-2`, `-3`… suffix. All or nothing: a failure removes what this call saved.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { safeWriteFile } from '../../tools/sdk/safe-write';
import { ToolError } from '../../tools/sdk/types';
import type { CheckedAttachment } from './attachments-check';
import { AttachmentError } from './attachments-check';
import { numberedName } from './attachments-name';

/** The folder of the workspace that attachments are copied into. */
export const ATTACHMENTS_FOLDER = 'attachments';

/** How many numbered names are tried before a random one. */
const NUMBERED_TRIES = 99;

/** An attachment and where its copy is. */
export interface SavedAttachment extends CheckedAttachment {
  /** Relative to the workspace, with `/`: `attachments/photo.png`. */
  path: string;
  /** Where the copy really is. */
  realPath: string;
}

/** Saves every attachment into `workspace`/attachments, or none of them; throws AttachmentError saying why. */
export async function saveAttachments(
  attachments: readonly CheckedAttachment[],
  workspace: string,
): Promise<SavedAttachment[]> {
  if (attachments.length === 0) return [];
  await assertFolder(workspace);
  const saved: SavedAttachment[] = [];
  try {
    for (const attachment of attachments) saved.push(await saveOne(attachment, workspace));
  } catch (error) {
    await discardSaved(saved);
    if (error instanceof AttachmentError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new AttachmentError(`the attachments could not be saved in the workspace ${workspace}: ${reason}`);
  }
  return saved;
}

/** Removes copies this process saved (a send that did not start after all); a file no longer there is skipped. */
export async function discardSaved(saved: readonly SavedAttachment[]): Promise<void> {
  for (const file of saved) await fs.rm(file.realPath, { force: true }).catch(() => undefined);
}

// The attachments folder is ours to make; an existing one must be a plain folder, never a symlink or a file.
async function assertFolder(workspace: string): Promise<void> {
  const root = await fs.realpath(workspace).catch(() => {
    throw new AttachmentError(`the chat's workspace ${workspace} does not exist, so nothing was attached`);
  });
  const folder = path.join(root, ATTACHMENTS_FOLDER);
  const stat = await fs.lstat(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (stat === null || stat.isDirectory()) return;
  const what = stat.isSymbolicLink() ? 'a symlink' : 'not a folder';
  throw new AttachmentError(
    `${folder} is ${what}; attachments are only copied into a plain "${ATTACHMENTS_FOLDER}" folder of the ` +
      'workspace, never through a link. Move it away and send again; nothing was attached.',
  );
}

async function saveOne(attachment: CheckedAttachment, workspace: string): Promise<SavedAttachment> {
  for (let n = 1; n <= NUMBERED_TRIES + 1; n++) {
    const name =
      n === 1
        ? attachment.fileName
        : n <= NUMBERED_TRIES
          ? numberedName(attachment.fileName, n)
          : numberedName(attachment.fileName, parseInt(randomBytes(4).toString('hex'), 16));
    const relative = `${ATTACHMENTS_FOLDER}/${name}`;
    try {
      const written = await safeWriteFile(
        { workspace, path: relative, parameter: relative, overwrite: false },
        attachment.bytes,
      );
      return { ...attachment, path: relative, realPath: written.realPath };
    } catch (error) {
      // Taken (a file, a folder, a symlink): try the next name; the existing one is never touched.
      if (error instanceof ToolError && error.code === 'exists') continue;
      if (error instanceof ToolError && /names a folder/.test(error.message)) continue;
      if (error instanceof ToolError) {
        // The writer's words are for the model (they suggest a tool); the person gets only the reason.
        const reason = error.message.replace(/ The file-writing tools never write there.*$/s, '');
        throw new AttachmentError(`"${attachment.name}" was not saved in the workspace: ${reason}`);
      }
      throw error;
    }
  }
  throw new AttachmentError(`"${attachment.name}" was not saved: every name tried is taken in the workspace`);
}
