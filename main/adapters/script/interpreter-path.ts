// Where a script tool's interpreter is found (docs/security.md, "Workspace trust"): `python3` on PATH, but never in a
// PATH folder inside the workspace, nor through a relative entry (which searches the working folder, the workspace),
// so a repository's own `bin/python3` cannot run in its place with the tool's secrets.
import fs from 'node:fs';
import path from 'node:path';
import { ToolError } from '../../../tools/sdk/types';

/**
 * The absolute path of `program` as PATH finds it, skipping empty and relative entries and every entry that is, as
 * written or through its links, `workspace` or a folder inside it. A name with a `/` is taken as it is.
 */
export function interpreterPath(program: string, workspace: string, pathValue: string | undefined): string {
  if (program.includes('/') || program.includes(path.sep)) return program;
  const realWorkspace = realOr(workspace);
  for (const entry of (pathValue ?? '').split(path.delimiter)) {
    if (entry === '' || !path.isAbsolute(entry)) continue;
    const readings = [path.resolve(entry), realOr(entry)];
    if (
      readings.some((reading) => inside(reading, realWorkspace) || inside(reading, path.resolve(workspace)))
    )
      continue;
    const candidate = path.join(entry, program);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here: the next entry.
    }
  }
  throw new ToolError(
    'script_error',
    `script error: ${program} was not found on PATH outside the workspace (a program of the workspace is never ` +
      "used as a script tool's interpreter)",
  );
}

function realOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

function inside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}
