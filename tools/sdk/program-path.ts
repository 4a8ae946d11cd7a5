// Where a program the app starts by name is found (docs/security.md): on PATH, but never in a PATH folder inside the
// workspace, nor through an empty or relative entry (which searches the working folder): a repository's own
// `bin/python3` or `bin/xdg-open` must not run in place of the program the person's approval or trust named.
import fs from 'node:fs';
import path from 'node:path';
import { inside } from './workspace-real';

/**
 * The absolute path of `program` as PATH finds it, skipping empty and relative entries and every entry that is, as
 * written or through its links, `workspace` or a folder inside it; null when no other entry has it. A name with a
 * path separator is returned as it is.
 */
export function programOutside(
  program: string,
  workspace: string,
  pathValue: string | undefined,
): string | null {
  if (program.includes('/') || program.includes(path.sep)) return program;
  const workspaces = [path.resolve(workspace), realOr(workspace)];
  for (const entry of (pathValue ?? '').split(path.delimiter)) {
    if (entry === '' || !path.isAbsolute(entry)) continue;
    const readings = [path.resolve(entry), realOr(entry)];
    if (readings.some((reading) => workspaces.some((root) => inside(root, reading)))) continue;
    const candidate = path.join(entry, program);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here: the next entry.
    }
  }
  return null;
}

/** The real path of `file`, or its resolved path when it does not exist. */
export function realOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}
