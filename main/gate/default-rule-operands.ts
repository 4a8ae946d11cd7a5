// The operands of a command under a default read-only rule (docs/security.md): every word that may name a path
// must lead inside the real workspace (and, for git, inside the repository's work tree), resolved as the
// sensitive-target check resolves paths: `~`, `..` in both readings, the real working folder, symlinks. A device
// or process file (`/dev/stdin`, `/proc/self/cwd`) never counts as inside. Otherwise the call asks.
import path from 'node:path';
import { clip } from '../../tools/sdk/shell/words';
import type { CommandPlace } from './command-place';
import { isInside, PathResolver, readings } from './real-path';

// File systems whose entries are devices or views of processes: never a workspace file, wherever the workspace is.
const SPECIAL_ROOTS = path.sep === '/' ? ['/dev', '/proc', '/sys'] : [];

/**
 * The words of `args` (the arguments after the command or git subcommand) that may name paths: every word that is
 * not an option, every word after `--`, and the value of every `--option=value`. An option's separate value
 * (`-n 5`) counts as a word too: it resolves inside unless it really leads out, so only a path can make it ask.
 */
export function pathOperands(args: readonly string[]): string[] {
  const operands: string[] = [];
  let afterDashes = false;
  for (const arg of args) {
    if (afterDashes) operands.push(arg);
    else if (arg === '--') afterDashes = true;
    else if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      if (equals !== -1) operands.push(arg.slice(equals + 1));
    } else if (!arg.startsWith('-') || arg === '-') operands.push(arg);
  }
  return operands;
}

/** Where the operands must stay: the place of the call, the home folder for `~`, and a tighter folder if any. */
export interface OperandBounds {
  place: CommandPlace;
  home?: string;
  /** A folder inside the workspace the operands must stay in too (the repository's work tree), and its name. */
  within?: { dir: string; name: string };
}

/** Why an operand takes the command outside its bounds, in words for the prompt, or null. */
export function operandHazard(operands: readonly string[], bounds: OperandBounds): string | null {
  const resolver = new PathResolver();
  const { place, home, within } = bounds;
  for (const operand of operands) {
    // A word that begins with `~` reaches the home folder wherever a program expands it: count it so.
    const expanded =
      home !== undefined && (operand === '~' || operand.startsWith('~/')) ? home + operand.slice(1) : operand;
    for (const reading of readings(resolver, expanded, place.cwd)) {
      const shown = `\`${clip(operand, 80)}\``;
      if (SPECIAL_ROOTS.some((root) => isInside(reading, root)))
        return `its operand ${shown} leads outside the workspace, to a device or process file (${clip(reading, 80)}), so the default read-only rule does not cover it`;
      if (!isInside(reading, place.workspace))
        return `its operand ${shown} leads outside the workspace (to ${clip(reading, 80)}), so the default read-only rule does not cover it`;
      if (within && !isInside(reading, within.dir))
        return `its operand ${shown} leads outside ${within.name} (to ${clip(reading, 80)}), so the default read-only rule does not cover it`;
    }
  }
  if (resolver.exhausted)
    return 'its operands are too many to resolve, so the default read-only rule does not cover it';
  return null;
}
