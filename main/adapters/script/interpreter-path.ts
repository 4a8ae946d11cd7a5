// Where a script tool's interpreter is found (docs/security.md, "Workspace trust"): `python3` on PATH, but never in
// the workspace, so a repository's own `bin/python3` cannot run in its place with the tool's secrets.
import { programOutside } from '../../../tools/sdk/program-path';
import { ToolError } from '../../../tools/sdk/types';

/** The absolute path of `program` on PATH outside `workspace` (tools/sdk/program-path.ts); a script_error when none. */
export function interpreterPath(program: string, workspace: string, pathValue: string | undefined): string {
  const found = programOutside(program, workspace, pathValue);
  if (found !== null) return found;
  throw new ToolError(
    'script_error',
    `script error: ${program} was not found on PATH outside the workspace (a program of the workspace is never ` +
      "used as a script tool's interpreter)",
  );
}
