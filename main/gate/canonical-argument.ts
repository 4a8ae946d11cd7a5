// The canonical argument string a rule pattern is matched against (docs/security.md).
import path from 'node:path';
import type { CommandReading } from '../../tools/sdk/shell/parse';
import { readCommandLine } from '../../tools/sdk/shell/parse';
import { stableStringify } from '../core/stable-json';
import type { CommandPlace } from './command-place';
import { commandPlace } from './command-place';
import { isInside, PathResolver, readings } from './real-path';

/** The argument keys that name what a call acts on, in the order docs/security.md gives ("Decisions and rules"). */
export const CANONICAL_KEYS = ['path', 'url', 'file', 'target', 'command'] as const;

/** Tools whose canonical argument is their command line. */
export const COMMAND_TOOLS: readonly string[] = ['run_command', 'background_command'];

/**
 * What a rule pattern sees of a call: a command line, one named value, or the JSON of the arguments. A command's
 * `text` is the normal form of its argv when the line is one plainly known command (what will run), else the
 * line with blank runs folded; `raw` is always the latter (deny rules match both). `reading` says what the shell
 * will make of the line, `place` where it runs (null when the gate was not told the workspace).
 */
export type CanonicalArgument =
  | {
      kind: 'command';
      key: string;
      text: string;
      raw: string;
      others: string[];
      reading: CommandReading;
      /** The length of the line as given, in UTF-8 bytes (the limit on standing approvals is on it). */
      bytes: number;
      place: CommandPlace | null;
      /** A command tool's line, run by /bin/sh in `place`; false for another tool's `command` argument. */
      shell: boolean;
    }
  | { kind: 'value'; key: string; text: string; others: string[] }
  | { kind: 'json'; text: string };

/** What the gate knows of the call's surroundings: the chat's workspace and the user's home folder. */
export interface CallContext {
  workspace: string;
  home?: string;
}

/**
 * run_command → its command line; else the first of path, url, file, target, command; else the JSON.
 * `others` holds the values of the other canonical keys: an allow pattern must cover them too, so a
 * harmless `path` cannot carry a call whose `file` points elsewhere.
 */
export function canonicalArgument(
  tool: string,
  args: Record<string, unknown>,
  context: CallContext | null = null,
): CanonicalArgument {
  if (COMMAND_TOOLS.includes(tool) && typeof args.command === 'string')
    return commandArgument('command', args.command, args, context, true);
  for (const key of CANONICAL_KEYS) {
    const value = args[key];
    if (typeof value !== 'string') continue;
    if (key === 'command') return commandArgument(key, value, args, context, false);
    const text = normaliseValue(key, value);
    const real = realReadings(key, value, context).filter((reading) => reading !== text);
    return { kind: 'value', key, text, others: [...otherValues(args, key), ...real] };
  }
  return { kind: 'json', text: stableStringify(args) };
}

function commandArgument(
  key: string,
  line: string,
  args: Record<string, unknown>,
  context: CallContext | null,
  shell: boolean,
): CanonicalArgument {
  const reading = readCommandLine(line, { home: context?.home });
  const raw = normaliseCommandLine(line);
  return {
    kind: 'command',
    key,
    text: reading.normal ?? raw,
    raw,
    others: otherValues(args, key),
    reading,
    bytes: Buffer.byteLength(line, 'utf8'),
    place: context ? commandPlace(context.workspace, args.cwd) : null,
    shell,
  };
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

// Path rules match where a path leads, not only its text (docs/security.md, "Decisions and rules"): `out/lib/x` with
// `out/lib -> ../src` is `src/x`, and `a/link/../b` is read as the kernel reads it too. These readings join `others`,
// so an allow rule must match each and a deny rule any. A relative path is given relative to the real workspace
// when it stays inside (else absolute), an absolute one under the workspace's given spelling. `~`, URLs and paths
// without a workspace to resolve from are matched as written.
function realReadings(key: string, value: string, context: CallContext | null): string[] {
  if (!context || (key !== 'path' && key !== 'file' && key !== 'target')) return [];
  if (value === '' || value.startsWith('~') || /^[a-z][a-z0-9+.-]*:/i.test(value)) return [];
  const resolver = new PathResolver();
  const given = path.resolve(context.workspace);
  const workspace = resolver.resolve(given);
  const found = readings(resolver, value.replace(/\\/g, '/'), workspace);
  if (resolver.exhausted) return [];
  return found.map((reading) => {
    if (!isInside(reading, workspace)) return reading;
    const inside = path.relative(workspace, reading);
    if (path.isAbsolute(value)) return inside === '' ? given : path.join(given, inside);
    return inside === '' ? '.' : inside.split(path.sep).join('/');
  });
}
