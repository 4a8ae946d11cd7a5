// What a default read-only rule cannot see in the argv (docs/security.md): a PATH through which a program in the
// workspace could stand in for `ls` or `git`, operands that lead outside the workspace, a folder where git finds no
// repository of the workspace's own (`git diff` then compares any files directly), and a repository whose config
// makes git start a program.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CanonicalArgument } from './canonical-argument';
import { operandHazard } from './default-rule-operands';
import { gitConfigHazard } from './git-config-check';
import { gitRepository } from './git-repository-check';
import { hardLinkInWorkTree, printsContents, secretFileInHistory } from './git-secret-files';
import { isInside } from './real-path';
import type { DefaultRule } from './rule-types';

/** Why a call the default rule `rule` matched must still ask (the reason goes in the prompt), or null. */
export async function defaultRuleHazard(
  canonical: CanonicalArgument,
  rule: Pick<DefaultRule, 'operands'>,
  home?: string,
): Promise<string | null> {
  if (canonical.kind !== 'command' || !canonical.reading.argv || !canonical.place)
    return 'the gate could not read the command line';
  const { argv } = canonical.reading;
  const place = canonical.place;
  const entries = (process.env.PATH ?? '').split(path.delimiter);
  // An empty or relative entry searches the working folder: a file named `git` there would run instead.
  if (entries.some((entry) => !path.isAbsolute(entry)))
    return 'PATH has an empty or relative entry, so a program in the workspace could run in place of the command';
  // So does an absolute one inside the workspace (direnv's `PATH_add bin`, `$PWD/node_modules/.bin`): the
  // repository's own `bin/git` would run under a rule that promised git.
  const planted = await entryInside(entries, place.workspace);
  if (planted)
    return `PATH has ${planted}, a folder inside the workspace, so a program of the workspace could run in place of the command`;
  const operands = rule.operands?.(argv) ?? [];
  if (argv[0] !== 'git') return operandHazard(operands, { place, home });
  const repository = await gitRepository(place.cwd, place.workspace);
  if (repository.kind === 'refused') return repository.reason;
  const within =
    repository.kind === 'found'
      ? {
          dir: repository.top,
          name: `the repository's work tree (${repository.top}; git would compare such a path directly, as with --no-index)`,
        }
      : undefined;
  const outside = operandHazard(operands, { place, home, within });
  if (outside) return outside;
  const hazard = await gitConfigHazard(place.cwd, place.workspace);
  if (hazard) return `${hazard}; the default read-only rule does not cover git here`;
  // A hard link to a secret, changed from what the index holds, is printed as work-tree text by `git diff` and
  // `git status -vv`.
  if (printsContents(argv) && (argv[1] === 'diff' || argv[1] === 'status')) {
    const linked = await hardLinkInWorkTree(place.cwd);
    if (linked) return linked;
  }
  // A committed .env stays in git's objects, which the sandbox cannot hide: printing contents asks when there is one.
  return printsContents(argv) ? secretFileInHistory(place.cwd, argv) : null;
}

// The first PATH entry that is, as written or through its links, the real workspace or a folder inside it.
async function entryInside(entries: readonly string[], workspace: string): Promise<string | null> {
  for (const entry of entries) {
    const readings = [path.resolve(entry), await fs.realpath(entry).catch(() => null)];
    if (readings.some((reading) => reading !== null && isInside(reading, workspace))) return entry;
  }
  return null;
}
