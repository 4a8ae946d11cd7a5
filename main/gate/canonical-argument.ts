// The canonical argument string a rule pattern is matched against (SPEC §8).
import path from 'node:path';
import { stableStringify } from '../core/stable-json';

/** The argument keys that name what a call acts on, in the order SPEC §8 gives. */
export const CANONICAL_KEYS = ['path', 'url', 'file', 'target', 'command'] as const;

/** Tools whose canonical argument is their command line. */
export const COMMAND_TOOLS: readonly string[] = ['run_command'];

/** What a rule pattern sees of a call: a command line, one named value, or the JSON of the arguments. */
export type CanonicalArgument =
  | { kind: 'command'; key: string; text: string; others: string[] }
  | { kind: 'value'; key: string; text: string; others: string[] }
  | { kind: 'json'; text: string };

/**
 * run_command → its command line; else the first of path, url, file, target, command; else the JSON.
 * `others` holds the values of the other canonical keys: an allow pattern must cover them too, so a
 * harmless `path` cannot carry a call whose `file` points elsewhere.
 */
export function canonicalArgument(tool: string, args: Record<string, unknown>): CanonicalArgument {
  if (COMMAND_TOOLS.includes(tool) && typeof args.command === 'string') {
    return {
      kind: 'command',
      key: 'command',
      text: normaliseCommandLine(args.command),
      others: otherValues(args, 'command'),
    };
  }
  for (const key of CANONICAL_KEYS) {
    const value = args[key];
    if (typeof value !== 'string') continue;
    if (key === 'command')
      return { kind: 'command', key, text: normaliseCommandLine(value), others: otherValues(args, key) };
    return { kind: 'value', key, text: normaliseValue(key, value), others: otherValues(args, key) };
  }
  return { kind: 'json', text: stableStringify(args) };
}

/** Trims a command line and folds runs of spaces and tabs, so `git  status` matches `git status`. */
export function normaliseCommandLine(line: string): string {
  return line.replace(/[ \t]+/g, ' ').trim();
}

// `/tmp/../etc/passwd` must not match an allow rule for `/tmp/**`: paths are matched once `..` is resolved.
function normaliseValue(key: string, value: string): string {
  if (key === 'url' || value === '') return value;
  return path.posix.normalize(value.replace(/\\/g, '/'));
}

function otherValues(args: Record<string, unknown>, except: string): string[] {
  return CANONICAL_KEYS.filter((key) => key !== except && typeof args[key] === 'string').map((key) =>
    key === 'command' ? normaliseCommandLine(args[key] as string) : normaliseValue(key, args[key] as string),
  );
}
