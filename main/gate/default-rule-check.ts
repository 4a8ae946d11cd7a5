// What a default read-only rule cannot see in the argv (docs/security.md): a PATH through which a program in the
// workspace could stand in for `ls` or `git`, and a repository whose config makes git start a program.
import path from 'node:path';
import type { CanonicalArgument } from './canonical-argument';
import { gitConfigHazard } from './git-config-check';

/** Why a call a default rule matched must still ask (the reason goes in the prompt), or null. */
export async function defaultRuleHazard(canonical: CanonicalArgument): Promise<string | null> {
  if (canonical.kind !== 'command' || !canonical.reading.argv || !canonical.place)
    return 'the gate could not read the command line';
  const entries = (process.env.PATH ?? '').split(path.delimiter);
  // An empty or relative entry searches the working folder: a file named `git` there would run instead.
  if (entries.some((entry) => !path.isAbsolute(entry)))
    return 'PATH has an empty or relative entry, so a program in the workspace could run in place of the command';
  if (canonical.reading.argv[0] === 'git') {
    const hazard = await gitConfigHazard(canonical.place.cwd, canonical.place.workspace);
    if (hazard) return `${hazard}; the default read-only rule does not cover git here`;
  }
  return null;
}
