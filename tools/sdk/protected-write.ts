// The safe writer's refusal of protected places (docs/security.md, "Files the tools write"): a file-writing tool
// never writes where a later program would run what it wrote, judged by the path as written and by where it really
// leads (a symlink inside the workspace to `.git` is `.git`), with the lists of tools/sdk/protected-names.ts.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { autorunReason, commandFolderReason, commandFolders, protectedPartsReason } from './protected-names';
import { ToolError } from './types';

/**
 * The error for writing `realTarget` (the file's absolute real path, as far as it exists) named by `textParts` (its
 * parts below the workspace as written), or null when the place is not protected.
 */
export function protectedWriteError(
  parameter: string,
  textParts: readonly string[],
  realTarget: string,
): ToolError | null {
  const homes = homeFolders();
  const reason =
    protectedPartsReason(textParts) ??
    protectedPartsReason(realTarget.split(path.sep).filter(Boolean)) ??
    autorunReason(realTarget, homes) ??
    commandFolderReason(realTarget, commandFolders(homes, process.env.PATH));
  if (reason === null) return null;
  return new ToolError(
    'protected_path',
    `\`${parameter}\` is refused: ${reason}. The file-writing tools never write there; nothing was written. If the ` +
      'person really wants this file changed, run_command with "sandbox": false can do it, and that always asks them.',
    { parameter, path: textParts.join('/') },
  );
}

// The home folder as the environment names it and where it really is.
function homeFolders(): string[] {
  const home = os.homedir();
  let real = home;
  try {
    real = fs.realpathSync(home);
  } catch {
    // A home folder that does not exist has nothing to protect under its real name.
  }
  return [...new Set([path.resolve(home), real])];
}

/** The realpath of the longest existing part of `target`, with the rest appended: where a new file would land. */
export async function realpathLoose(target: string): Promise<string> {
  const rest: string[] = [];
  let existing = target;
  for (;;) {
    try {
      return path.join(await fsp.realpath(existing), ...rest);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return target;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}
