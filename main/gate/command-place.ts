// Where a command runs (docs/security.md): its `cwd` resolved against the workspace through every symlink. A rule
// that allows a command applies only when that real folder is inside the real workspace.
import { isInside, realPath } from './real-path';

/** The real workspace, the real working folder of a call, and whether the one is inside the other. */
export interface CommandPlace {
  workspace: string;
  cwd: string;
  inside: boolean;
}

/** Resolves a call's `cwd` argument ('' or absent: the workspace itself) against the workspace. */
export function commandPlace(workspace: string, cwd: unknown): CommandPlace {
  const realWorkspace = realPath(workspace);
  const given = typeof cwd === 'string' ? cwd : '';
  const realCwd = realPath(given, realWorkspace);
  return { workspace: realWorkspace, cwd: realCwd, inside: isInside(realCwd, realWorkspace) };
}
