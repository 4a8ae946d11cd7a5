// Where a command runs (docs/security.md): its `cwd` resolved against the workspace through every symlink. A rule
// that allows a command applies only when that real folder is inside the real workspace.
import { isInside, PathResolver, readings } from './real-path';

/** The real workspace, the real working folder of a call, and whether the one is inside the other. */
export interface CommandPlace {
  workspace: string;
  cwd: string;
  inside: boolean;
}

/**
 * Resolves a call's `cwd` argument ('' or absent: the workspace itself) against the workspace. `cwd` is where
 * run_command will run (`..` dropped first, then links followed); `inside` needs the kernel's reading inside too.
 */
export function commandPlace(workspace: string, cwd: unknown): CommandPlace {
  const resolver = new PathResolver();
  const realWorkspace = resolver.resolve(workspace);
  const given = typeof cwd === 'string' ? cwd : '';
  const [realCwd = realWorkspace, ...others] = readings(resolver, given, realWorkspace);
  const inside =
    !resolver.exhausted && [realCwd, ...others].every((reading) => isInside(reading, realWorkspace));
  return { workspace: realWorkspace, cwd: realCwd, inside };
}
