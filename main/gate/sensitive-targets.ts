// Sensitive targets (SPEC §8): calls that touch secrets always ask, whatever the rules and grants say.
import path from 'node:path';
import type { CanonicalArgument } from './canonical-argument';
import { CANONICAL_KEYS } from './canonical-argument';
import type { SegmentPattern } from './sensitive-names';
import {
  SECRET_STORE_COMMANDS,
  SECRET_STORE_WORDS,
  SENSITIVE_HOME_DIRS,
  SENSITIVE_NAMES,
} from './sensitive-names';
import { basename, commandWords, hasShellGlob, shellGlobToRegExp, words } from './shell-words';

/** Where the user's secrets live on this machine. */
export interface SensitiveOptions {
  /** The user's home folders (os.homedir() and $HOME when they differ). */
  homes: string[];
  /** $AGENVOY_HOME: the secret file, the approval rules, mcp.json and script tools. */
  agenvoyHome: string;
}

/** Why a call always asks: what it touches and in which argument. */
export interface SensitiveTarget {
  label: string;
  argument: string;
}

// Arguments that name where a command runs: `ls` in the home folder lists ~/.ssh.
const DIRECTORY_KEYS = new Set(['cwd', 'dir', 'directory', 'workdir', 'working_directory']);
// Arguments that hold a command line besides the canonical one.
const COMMAND_KEYS = new Set(['command', 'cmd', 'script', 'shell']);

/** The first sensitive target a call touches, or null. Every string of the arguments is read, at any depth. */
export function findSensitiveTarget(
  args: Record<string, unknown>,
  canonical: CanonicalArgument,
  options: SensitiveOptions,
): SensitiveTarget | null {
  if (canonical.kind === 'command') {
    const hit = secretStoreCommand(canonical.text);
    if (hit) return { label: hit, argument: canonical.key };
  }
  for (const [where, key, value] of strings(args, '')) {
    if (COMMAND_KEYS.has(key)) {
      const hit = secretStoreCommand(value);
      if (hit) return { label: hit, argument: where };
    }
    const wide = DIRECTORY_KEYS.has(key) || isCanonicalValue(canonical, key);
    const hit = sensitivePath(value, options, wide);
    if (hit) return { label: hit, argument: where };
  }
  return null;
}

/** What sensitive location a text names, if any. `wide` also counts folders that contain one (`ls ~`). */
export function sensitivePath(text: string, options: SensitiveOptions, wide = false): string | null {
  const agenvoyHome = path.resolve(options.agenvoyHome);
  const absolute: string[] = [];
  // The whole value counts as one path too (a folder name with spaces), unless it is clearly prose or code.
  const whole = text.length <= 4096 && !/[\n\r]/.test(text) ? [text] : [];
  for (const word of new Set([...whole, ...words(text)])) {
    const expanded = expandHome(word, options);
    for (const candidate of expanded === word ? [word] : [word, expanded]) {
      const named = namedLocation(candidate);
      if (named) return named;
    }
    if (!path.isAbsolute(expanded)) continue;
    const resolved = path.resolve(expanded);
    if (isInside(resolved, agenvoyHome))
      return `Agenvoy's own folder ($AGENVOY_HOME: the secret file, approval rules, tools)`;
    absolute.push(resolved);
  }
  if (!wide) return null;
  // The named reason is more useful, so containing folders are only looked at once no word names a location.
  const roots = [
    ...options.homes.flatMap((home) => SENSITIVE_HOME_DIRS.map((dir) => path.join(home, dir))),
    agenvoyHome,
  ];
  for (const resolved of absolute) {
    const contained = roots.find((root) => isInside(root, resolved));
    if (contained) return `a folder that contains ${contained}`;
  }
  return null;
}

/** Which secret store a command line runs, if any. */
export function secretStoreCommand(line: string): string | null {
  for (const word of commandWords(line)) {
    const name = matchName(basename(word), SECRET_STORE_COMMANDS);
    if (name) return `a secret-store command (${name})`;
  }
  for (const word of words(line)) {
    const name = matchName(basename(word), SECRET_STORE_WORDS);
    if (name) return `a secret-store command (${name})`;
  }
  return null;
}

function matchName(word: string, names: readonly string[]): string | null {
  if (hasShellGlob(word)) {
    const glob = shellGlobToRegExp(word);
    return names.find((name) => glob.test(name)) ?? null;
  }
  const lower = word.toLowerCase();
  return names.find((name) => name === lower) ?? null;
}

// Every name's first segment leaves a trace in any word that names it, so most words are ruled out by one look-up.
const NEEDLES = SENSITIVE_NAMES.map((name) =>
  (name.segments[0]?.needle ?? name.segments[0]?.sample ?? '').toLowerCase(),
);

/** A path segment, with its glob compiled when it is one worth testing against the names. */
interface Segment {
  text: string;
  glob: RegExp | null;
}

function namedLocation(word: string): string | null {
  const hasNeedle = (text: string) => NEEDLES.some((needle) => text.includes(needle));
  const lower = word.toLowerCase();
  if (!hasShellGlob(word) && !hasNeedle(lower)) return null;
  const segments = word
    .split(/[\\/]+/)
    .filter((text) => text.length > 0)
    .map(toSegment);
  if (!segments.some((segment) => segment.glob) && !hasNeedle(lower)) return null;
  for (const name of SENSITIVE_NAMES) {
    for (let i = 0; i + name.segments.length <= segments.length; i++) {
      if (name.segments.every((pattern, j) => segmentMatches(segments[i + j] as Segment, pattern)))
        return name.label;
    }
  }
  return null;
}

// `~/.ss?/id_rsa` or `~/.s*` reaches ~/.ssh without naming it: a glob is tested against the name's sample. A glob
// with almost no literal text (`*`, `*s`) would flag every wildcard, so only hidden-name globs and specific ones count.
function toSegment(text: string): Segment {
  if (!hasShellGlob(text)) return { text, glob: null };
  const literal = text.replace(/\[[^\]]*\]|[*?]/g, '');
  return { text, glob: text.startsWith('.') || literal.length >= 3 ? shellGlobToRegExp(text) : null };
}

function segmentMatches(segment: Segment, pattern: SegmentPattern): boolean {
  return segment.glob ? segment.glob.test(pattern.sample) : pattern.test.test(segment.text);
}

function expandHome(word: string, options: SensitiveOptions): string {
  if (word[0] !== '~' && word[0] !== '$') return word;
  const home = options.homes[0] ?? '/';
  return word
    .replace(/^~(?=\/|\\|$)/, home)
    .replace(/^\$\{?HOME\}?(?=\/|\\|$)/, home)
    .replace(/^\$\{?AGENVOY_HOME\}?(?=\/|\\|$)/, options.agenvoyHome);
}

function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}

function isCanonicalValue(canonical: CanonicalArgument, key: string): boolean {
  return canonical.kind !== 'json' && (CANONICAL_KEYS as readonly string[]).includes(key);
}

function* strings(value: unknown, where: string, key = ''): Generator<[string, string, string]> {
  if (typeof value === 'string') yield [where || key, key, value];
  else if (Array.isArray(value))
    for (const [i, item] of value.entries()) yield* strings(item, `${where}[${i}]`, key);
  else if (value && typeof value === 'object') {
    for (const [k, item] of Object.entries(value)) yield* strings(item, where ? `${where}.${k}` : k, k);
  }
}
