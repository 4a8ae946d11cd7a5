// What a default read-only rule cannot see in the argv (docs/security.md): a PATH through which a program in the
// workspace could stand in for `ls` or `git`, operands that lead outside the workspace, a folder where git finds no
// repository of the workspace's own (`git diff` then compares any files directly), and a repository whose config
// makes git start a program.
import path from 'node:path';
import type { CanonicalArgument } from './canonical-argument';
import { operandHazard } from './default-rule-operands';
import { gitConfigHazard } from './git-config-check';
import { gitRepository } from './git-repository-check';
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
  return null;
}
