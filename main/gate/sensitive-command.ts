// Sensitive targets of a command line as the shell will open them (docs/security.md): every word of every simple
// command (nested ones too) expanded with the command's own environment (`~`, `$HOME`, `${x:-.ssh}`), resolved
// against its working folder and the folders it `cd`s into, through symlinks.
import { expandLine } from '../../tools/sdk/shell/expand';
import { quoteArgv } from '../../tools/sdk/shell/quote';
import { childEnvironment } from '../core/child-env';
import type { SensitiveOptions } from './sensitive-paths';
import { resolvedLocation, secretStoreCommand, SensitiveResolution, sensitivePath } from './sensitive-paths';
import { MAX_STANDING_LINE_BYTES } from './command-standing';
import { words } from './shell-words';

/** The real workspace and real working folder of a call. */
export interface SensitiveScope {
  workspace: string;
  cwd: string;
}

/**
 * Bounds on resolving one line: paths resolved on disk (a value counts once per folder it is resolved from), and
 * distinct folders it `cd`s into. A 32 KiB line of plain words stays inside them; past them the line is not checked
 * through, and says so.
 */
export const RESOLVE_LIMITS = { resolutions: 100_000, bases: 32 };

/** The label of a line the check could not read through: it asks, as a sensitive target would. */
export function uncheckedLine(why: string): string {
  return `paths the gate cannot check for sensitive targets (${why})`;
}

/** The first sensitive location a command line reaches once the shell has expanded it, or null. */
export function sensitiveInCommand(
  line: string,
  options: SensitiveOptions,
  scope: SensitiveScope,
  resolution: SensitiveResolution = new SensitiveResolution(options),
): string | null {
  // A line no standing approval may cover asks anyway: it is read by name only, not expanded and resolved on disk.
  if (Buffer.byteLength(line, 'utf8') > MAX_STANDING_LINE_BYTES)
    return (
      secretStoreCommand(line) ??
      sensitivePath(line, options, true, resolution) ??
      uncheckedLine(`it is longer than the ${MAX_STANDING_LINE_BYTES / 1024} KiB the gate resolves`)
    );
  const home = options.homes[0] ?? '/';
  const expanded = expandLine(line, {
    variables: { ...childEnvironment(process.env), HOME: home, PWD: scope.cwd },
    // The sandbox points TMPDIR at a per-call folder.
    unknown: ['TMPDIR'],
  });
  for (const command of expanded.commands) {
    const heads = command[0]?.values ?? [];
    for (const head of heads) {
      const hit = secretStoreCommand(
        quoteArgv([head, ...command.slice(1).map((word) => word.values[0] ?? '')]),
      );
      if (hit) return hit;
    }
  }
  const found = new Set([scope.cwd]);
  for (const directory of expanded.directories)
    for (const value of directory.values)
      if (found.size <= RESOLVE_LIMITS.bases)
        found.add(resolution.resolver.resolve(value.replace(/^~(?=\/|$)/, home), scope.cwd));
  const bases = [...found];
  // Past the bound on folders, values are still read by name, but not resolved: the line asks anyway.
  const resolving = bases.length <= RESOLVE_LIMITS.bases;
  let resolved = 0;
  for (const word of expanded.words) {
    for (const value of word.values) {
      const named = sensitivePath(value, options, true, resolution);
      if (named) return named;
      if (!resolving) continue;
      // `--output=../x`, `PATH=a:b`, `if=/dev/x`: the pieces after `=`, `:` and `,` are paths too.
      for (const piece of new Set([value, ...words(value)])) {
        resolved += bases.length;
        if (resolved > RESOLVE_LIMITS.resolutions) return uncheckedLine('too many paths in it to resolve');
        const hit = resolvedLocation(piece, bases, options, true, resolution);
        if (hit) return hit;
      }
    }
  }
  // What was not read or resolved could be anything: such a line asks, with the reason.
  if (expanded.truncated) return uncheckedLine(expanded.truncated);
  if (!resolving) return uncheckedLine('it changes into too many folders to follow');
  if (resolution.resolver.exhausted) return uncheckedLine('too many paths in it to resolve');
  return null;
}
