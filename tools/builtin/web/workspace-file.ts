// Files the web and media tools save: through the safe writer (tools/sdk/safe-write.ts), so a file lands inside the
// workspace or nowhere, written whole, never replacing an existing file unless asked.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SafeWriteContent } from '../../sdk/safe-write';
import { checkWritable, safeWriteFile } from '../../sdk/safe-write';
import { ToolError } from '../../sdk/types';

/** The absolute target of a workspace-relative path; an error naming `param` when it leaves the workspace. */
export async function workspaceTarget(workspace: string, relative: string, param: string): Promise<string> {
  return checkWritable({ workspace, path: relative, parameter: param, overwrite: true });
}

/** Throws `exists` when the target is there and may not be replaced. */
export async function assertFree(target: string, overwrite: boolean, shown: string): Promise<void> {
  if (!overwrite && (await exists(target))) {
    throw new ToolError('exists', `${shown} already exists; pass overwrite=true to replace it`, {
      path: shown,
    });
  }
}

/** Writes `content` at `target` (inside `workspace`) with the safe writer; returns the bytes written. */
export async function saveFile(
  workspace: string,
  target: string,
  overwrite: boolean,
  param: string,
  content: SafeWriteContent,
  signal?: AbortSignal,
): Promise<number> {
  const written = await safeWriteFile(
    { workspace, path: target, parameter: param, overwrite },
    content,
    signal,
  );
  return written.bytes;
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

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}
