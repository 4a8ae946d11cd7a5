// Sensitive targets of a command line as the shell will open them (docs/security.md): every word of every simple
// command (nested ones too) expanded with the command's own environment (`~`, `$HOME`, `${x:-.ssh}`), resolved
// against its working folder and the folders it `cd`s into, through symlinks.
import { expandLine } from '../../tools/shell/expand';
import { quoteArgv } from '../../tools/shell/quote';
import { childEnvironment } from '../core/child-env';
import { realPath } from './real-path';
import type { SensitiveOptions } from './sensitive-paths';
import { resolvedLocation, secretStoreCommand, sensitivePath } from './sensitive-paths';
import { words } from './shell-words';

/** The real workspace and real working folder of a call. */
export interface SensitiveScope {
  workspace: string;
  cwd: string;
}

// Past this many values the rest are only read by name, not resolved on disk (each costs a few lstat calls).
const MAX_RESOLVED = 2000;

/** The first sensitive location a command line reaches once the shell has expanded it, or null. */
export function sensitiveInCommand(
  line: string,
  options: SensitiveOptions,
  scope: SensitiveScope,
): string | null {
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
  const bases = [scope.cwd];
  for (const directory of expanded.directories)
    for (const value of directory.values) bases.push(realPath(value.replace(/^~(?=\/|$)/, home), scope.cwd));
  let resolved = 0;
  for (const word of expanded.words) {
    for (const value of word.values) {
      const named = sensitivePath(value, options, true);
      if (named) return named;
      // `--output=../x`, `PATH=a:b`, `if=/dev/x`: the pieces after `=`, `:` and `,` are paths too.
      for (const piece of new Set([value, ...words(value)])) {
        if (resolved++ >= MAX_RESOLVED) break;
        const hit = resolvedLocation(piece, bases, options, true);
        if (hit) return hit;
      }
    }
  }
  return null;
}
