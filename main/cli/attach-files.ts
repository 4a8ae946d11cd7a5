// `agenvoy chat --attach FILE`: the named files read and checked with the same limits as the app's composer
// (docs/attachments.md); a file that cannot be attached ends the command (exit 1) with the reason, before any chat opens.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CheckedAttachment, RawAttachment } from '../agent/attachments';
import { ATTACHMENT_LIMITS, AttachmentError, checkAttachments } from '../agent/attachments';
import { sensitiveNameIn } from '../../tools/sdk/sensitive-names';
import { UsageError } from './io';

// The largest file any kind may be: a bigger one is refused by its size, without being read.
const LARGEST = Math.max(
  ATTACHMENT_LIMITS.imageBytes,
  ATTACHMENT_LIMITS.textBytes,
  ATTACHMENT_LIMITS.fileBytes,
);

// Types a text file's extension names (the bytes decide whether it is text at all).
const TEXT_TYPES: Record<string, string> = {
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
};

/** Reads and checks the files of every --attach; throws UsageError (exit 1) naming the file that cannot go. */
export async function readAttachedFiles(files: readonly string[], cwd: string): Promise<CheckedAttachment[]> {
  if (files.length > ATTACHMENT_LIMITS.count)
    throw new UsageError(
      `${files.length} files were attached; one message may carry at most ${ATTACHMENT_LIMITS.count}.`,
      1,
    );
  const raw: RawAttachment[] = [];
  const here = { named: path.resolve(cwd), real: await fs.realpath(cwd).catch(() => path.resolve(cwd)) };
  for (const file of files) raw.push(await readOne(path.resolve(cwd, file), file, here));
  try {
    return checkAttachments(raw);
  } catch (error) {
    if (error instanceof AttachmentError) throw new UsageError(error.message, 1);
    throw error;
  }
}

async function readOne(full: string, given: string, here: Here): Promise<RawAttachment> {
  const stat = await fs.stat(full).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`--attach ${given}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`, 1);
  });
  if (!stat.isFile()) throw new UsageError(`--attach ${given}: not a file`, 1);
  await refuseSecretFile(full, given, stat.nlink, here);
  if (stat.size > LARGEST) {
    const mb = (bytes: number) => `${Number((bytes / 1048576).toFixed(2))} MB`;
    throw new UsageError(
      `"${path.basename(full)}" is ${mb(stat.size)}; no attachment may be larger than ${mb(LARGEST)}.`,
      1,
    );
  }
  const bytes = await fs.readFile(full);
  return { name: path.basename(full), mimeType: TEXT_TYPES[path.extname(full).toLowerCase()] ?? '', bytes };
}

/**
 * An attachment goes to the model's provider, the chat's history and a copy in the workspace, so a secret file is
 * never one (docs/attachments.md, "A hostile repository"): not by a sensitive name (`.env`, `id_rsa`, `*.key`, the
 * list of tools/sdk/sensitive-names.ts), not through a link to one (a cloned repository's `docs/diagram.png ->
 * ../../.ssh/id_rsa`, git keeps links), nor a file with a second name (a hard link may be a key under another name).
 * A secret is given to tools through the masked prompt, never as a message. Nor a link out of the folder the command
 * runs in (`here`): the same repository's link may name any private file (`~/Documents/tax.pdf`), which the person
 * attaches by its own path when they mean it.
 */
async function refuseSecretFile(full: string, given: string, names: number, here: Here): Promise<void> {
  const real = await fs.realpath(full);
  const label = sensitiveNameIn(full.split(path.sep)) ?? sensitiveNameIn(real.split(path.sep));
  const through = real === full ? '' : ` (it leads to ${real})`;
  if (label)
    throw new UsageError(
      `--attach ${given}${through}: it is ${label}, which is never attached, since an attachment goes to the model; store a key with \`agenvoy secrets set\` instead.`,
      1,
    );
  // Named inside the folder, but really outside it: through a link of the file or of a folder on its way.
  if (within(full, here.named) && !within(real, here.real))
    throw new UsageError(
      `--attach ${given}${through}: it leads out of ${here.named} through a link; attach that file by its own path if you mean it.`,
      1,
    );
  if (names > 1)
    throw new UsageError(
      `--attach ${given}${through}: the file has more than one name (a hard link), so it may be a secret file under another name; attach a copy of it instead.`,
      1,
    );
}

/** The folder the command runs in, as named and as it really is. */
interface Here {
  named: string;
  real: string;
}

function within(file: string, folder: string): boolean {
  return file.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
}
