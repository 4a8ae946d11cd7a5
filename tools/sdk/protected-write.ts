// The safe writer's refusal of protected places (docs/security.md, "Files the tools write"): a file-writing tool
// never writes where a later program would run what it wrote, judged by the path as written and by where it really
// leads (a symlink inside the workspace to `.git` is `.git`), with the lists of tools/sdk/protected-names.ts.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  autorunReason,
  commandFolderReason,
  commandFolders,
  protectedPartsReason,
  within,
} from './protected-names';
import { hooksPathAbove } from './hooks-path';
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
    appFolderReason(realTarget) ??
    hooksFolderReason(realTarget) ??
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

// This app's own folders ($AGENVOY_HOME of each core running in this process), as given and where they really are.
const appFolders = new Map<string, number>();

/**
 * Marks `folder` ($AGENVOY_HOME) as this app's own: its `mcp.json` starts programs unconfined, its global tools are
 * always trusted, its rules decide what runs unasked. No file-writing tool writes its `tools`, `mcp.json`, `.secrets`
 * or `desktop`, wherever it is (the default `~/.config/agenvoy` is refused by name too). The composition root calls
 * it; the undo unmarks it.
 */
export function protectAppFolder(folder: string): () => void {
  let real = path.resolve(folder);
  try {
    real = fs.realpathSync(folder);
  } catch {
    // Not made yet: its name is what a write would reach.
  }
  const names = [...new Set([path.resolve(folder), real])];
  for (const name of names) appFolders.set(name, (appFolders.get(name) ?? 0) + 1);
  return () => {
    for (const name of names) {
      const count = (appFolders.get(name) ?? 1) - 1;
      if (count > 0) appFolders.set(name, count);
      else appFolders.delete(name);
    }
  };
}

/** The app folder ($AGENVOY_HOME, marked by protectAppFolder) that `target` is in or is, or null. */
export function appFolderOf(target: string): string | null {
  for (const folder of appFolders.keys()) if (within(target, folder)) return folder;
  return null;
}

// What the app keeps in $AGENVOY_HOME (docs/hosts.md, "Files under AGENVOY_HOME"); a workspace may lie beside them.
const APP_ENTRIES = ['tools', 'mcp.json', '.secrets', 'desktop'];

function appFolderReason(target: string): string | null {
  for (const folder of appFolders.keys()) {
    const entry = APP_ENTRIES.find((name) => within(target, path.join(folder, name)));
    if (entry !== undefined)
      return `${target} is in ${path.join(folder, entry)}, this app's own files (AGENVOY_HOME: its MCP servers, tools, rules and secrets)`;
  }
  return null;
}

// A repository whose config moved its hooks into the work tree (core.hooksPath): git runs what is written there.
function hooksFolderReason(target: string): string | null {
  const hooks = hooksPathAbove(target);
  return hooks !== null && within(target, hooks)
    ? `${target} is in ${hooks}, the folder git runs hooks from (core.hooksPath of its repository)`
    : null;
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
