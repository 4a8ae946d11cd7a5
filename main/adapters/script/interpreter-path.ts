// Where a script tool's interpreter is found (docs/security.md, "Workspace trust"): `python3` on PATH, but never in
// the workspace, so a repository's own `bin/python3` cannot run in its place with the tool's secrets. Nor through a
// version manager's shim (asdf, mise, pyenv), which picks the interpreter from a `.tool-versions` or `.python-version`
// in the folder it runs in, the workspace: asdf's `python path:./tools/py` ran the repository's own interpreter with
// a global tool's secrets. The interpreter PATH finds is asked once, from the home folder, which executable it
// really is, and that one runs.
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { programOutside, realOr } from '../../../tools/sdk/program-path';
import { inside } from '../../../tools/sdk/workspace-real';
import { ToolError } from '../../../tools/sdk/types';

// The real executable behind each interpreter PATH found (a shim or the program itself), asked once per process.
const resolved = new Map<string, Promise<string>>();

/** The most a probe of the interpreter may take; past it the program PATH found is used as it is. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * The absolute path of the interpreter `program` really is, found on PATH outside `workspace`
 * (tools/sdk/program-path.ts) and, when it is a version manager's shim, resolved away from the workspace's
 * configuration; a script_error when none, or when it resolves into the workspace.
 */
export async function interpreterPath(
  program: string,
  workspace: string,
  pathValue: string | undefined,
): Promise<string> {
  const found = programOutside(program, workspace, pathValue);
  if (found === null)
    throw new ToolError(
      'script_error',
      `script error: ${program} was not found on PATH outside the workspace (a program of the workspace is never ` +
        "used as a script tool's interpreter)",
    );
  const real = await realInterpreter(found, pathValue);
  const roots = [path.resolve(workspace), realOr(workspace)];
  if (roots.some((root) => inside(root, real)))
    throw new ToolError(
      'script_error',
      `script error: ${found} runs ${real}, an interpreter inside the workspace (a version manager's setting of the ` +
        "workspace picked it), which is never used as a script tool's interpreter",
    );
  return real;
}

// Asked without blocking the app's thread; one probe per interpreter and process, shared by calls that overlap.
function realInterpreter(found: string, pathValue: string | undefined): Promise<string> {
  let known = resolved.get(found);
  if (!known) {
    known = new Promise<string>((resolve) => {
      // From the home folder: the person's own version settings, never a repository's. The app's own environment
      // (a version manager's variables with it), never a tool's secrets.
      execFile(
        found,
        ['-c', 'import sys; sys.stdout.write(sys.executable)'],
        {
          cwd: os.homedir(),
          env: { ...process.env, PATH: pathValue ?? '' },
          timeout: PROBE_TIMEOUT_MS,
          encoding: 'utf8',
        },
        // Not a Python, or it failed: the program found is run as it is, and says so itself.
        (error, out) => resolve(!error && path.isAbsolute(out) ? out : found),
      );
    });
    resolved.set(found, known);
  }
  return known;
}
