// Sensitive targets (docs/security.md): calls that touch secrets always ask, whatever the rules and
// grants say. Paths are read as text (names, globs, `~`) and, once the gate knows where the call runs, resolved
// the way the shell and the kernel will: expansions, `..`, the working folder, symlinks.
import type { CanonicalArgument } from './canonical-argument';
import { CANONICAL_KEYS } from './canonical-argument';
import type { SensitiveScope } from './sensitive-command';
import { sensitiveInCommand } from './sensitive-command';
import type { SensitiveOptions } from './sensitive-paths';
import { resolvedLocation, secretStoreCommand, SensitiveResolution, sensitivePath } from './sensitive-paths';
import { words } from './shell-words';

export type { SensitiveOptions } from './sensitive-paths';
export type { SensitiveScope } from './sensitive-command';
export { secretStoreCommand, sensitivePath } from './sensitive-paths';

/** Why a call always asks: what it touches and in which argument. */
export interface SensitiveTarget {
  label: string;
  argument: string;
}

// Arguments that name where a command runs: `ls` in the home folder lists ~/.ssh.
export const DIRECTORY_KEYS = new Set(['cwd', 'dir', 'directory', 'workdir', 'working_directory']);
// Arguments that hold a command line besides the canonical one.
export const COMMAND_KEYS = new Set(['command', 'cmd', 'script', 'shell']);
// Past this many words a string argument is prose or data: it is read by name only, not resolved on disk.
export const MAX_RESOLVED_WORDS = 64;

/**
 * The first sensitive target a call touches, or null. Every string of the arguments is read, at any depth; with
 * `scope`, a command line is expanded as its shell will and paths are resolved from the working folder (for a
 * command) or the workspace (for other tools' arguments) through symlinks.
 */
export function findSensitiveTarget(
  args: Record<string, unknown>,
  canonical: CanonicalArgument,
  options: SensitiveOptions,
  scope: SensitiveScope | null = null,
): SensitiveTarget | null {
  // One resolution for the whole call: what it saw on disk and the locations compared with are worked out once.
  const resolution = new SensitiveResolution(options);
  // The command line itself is read once, from its working folder, with the expanding reader.
  const commandLine = canonical.kind === 'command' ? canonical.key : null;
  if (canonical.kind === 'command') {
    const hit =
      secretStoreCommand(canonical.text) ??
      (canonical.raw === canonical.text ? null : secretStoreCommand(canonical.raw)) ??
      (scope ? sensitiveInCommand(canonical.raw, options, scope, resolution) : null);
    if (hit) return { label: hit, argument: canonical.key };
  }
  for (const [where, key, value] of strings(args)) {
    if (where === commandLine) {
      const hit = sensitivePath(value, options, true, resolution);
      if (hit) return { label: hit, argument: where };
      continue;
    }
    if (COMMAND_KEYS.has(key)) {
      const hit =
        secretStoreCommand(value) ?? (scope ? sensitiveInCommand(value, options, scope, resolution) : null);
      if (hit) return { label: hit, argument: where };
    }
    const directory = DIRECTORY_KEYS.has(key);
    const wide = directory || isCanonicalValue(canonical, key);
    const hit =
      sensitivePath(value, options, wide, resolution) ??
      (scope ? resolvedValue(value, options, scope, wide, directory, resolution) : null);
    if (hit) return { label: hit, argument: where };
  }
  return null;
}

// A string argument resolved from the workspace: as a whole (a folder name with spaces) and word by word.
function resolvedValue(
  value: string,
  options: SensitiveOptions,
  scope: SensitiveScope,
  wide: boolean,
  directory: boolean,
  resolution: SensitiveResolution,
): string | null {
  if (value === '' || value.length > 4096 || /[\n\r]/.test(value)) return null;
  // A working folder that leaves the workspace through a symlink counts wherever it leads.
  if (directory) return resolvedLocation(value, [scope.workspace], options, true, resolution);
  const candidates = [value, ...words(value)].slice(0, MAX_RESOLVED_WORDS);
  for (const candidate of new Set(candidates)) {
    const hit = resolvedLocation(candidate, [scope.workspace], options, wide, resolution);
    if (hit) return hit;
  }
  return null;
}

function isCanonicalValue(canonical: CanonicalArgument, key: string): boolean {
  return canonical.kind !== 'json' && (CANONICAL_KEYS as readonly string[]).includes(key);
}

// Every string in the arguments with where it is and its key, depth first in order, with a stack of its own
// rather than recursion: arguments nest as deeply as a model makes them.
export function* strings(args: unknown): Generator<[string, string, string]> {
  const stack: Array<{ value: unknown; where: string; key: string }> = [{ value: args, where: '', key: '' }];
  while (stack.length > 0) {
    const { value, where, key } = stack.pop() as (typeof stack)[number];
    if (typeof value === 'string') yield [where || key, key, value];
    else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i] as unknown, where: `${where}[${i}]`, key });
    } else if (value && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, item] = entries[i] as [string, unknown];
        stack.push({ value: item, where: where ? `${where}.${k}` : k, key: k });
      }
    }
  }
}
