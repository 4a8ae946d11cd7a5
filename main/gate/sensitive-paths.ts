// Which sensitive location a path names (docs/security.md): by name anywhere in it (`.ssh`, `.env`…, also
// through shell globs), under $AGENVOY_HOME, a folder containing a secret store, and where symlinks really lead.
import os from 'node:os';
import path from 'node:path';
import { isInside, PathResolver, readings } from './real-path';
import type { SegmentPattern } from '../../tools/sdk/sensitive-names';
import {
  SECRET_STORE_COMMANDS,
  SECRET_STORE_WORDS,
  SENSITIVE_HOME_DIRS,
  SENSITIVE_NAMES,
} from '../../tools/sdk/sensitive-names';
import type { ShellGlob } from './shell-glob';
import { globLiteralLength } from './shell-glob';
import { basename, commandWords, hasShellGlob, shellGlob, words } from './shell-words';
import { foldName } from '../../tools/sdk/name-fold';

/** Where the user's secrets live on this machine. */
export interface SensitiveOptions {
  /** The user's home folders (os.homedir() and $HOME when they differ). */
  homes: string[];
  /** $AGENVOY_HOME: the secret file, the approval rules, mcp.json and script tools. */
  agenvoyHome: string;
}

const AGENVOY = `Agenvoy's own folder ($AGENVOY_HOME: the secret file, approval rules, tools)`;
// A hard link is the same file under a second name, whose other names cannot be found: `notes.txt` in the
// workspace may be ~/.ssh/id_rsa, and the sandbox, which hides by path, shows it (docs/security.md, "Hard links").
const HARD_LINK = 'a file with more than one name (a hard link: it may be a secret file under another name)';

/**
 * What one decision resolves paths with: a resolver that remembers what it saw on disk, and the locations every
 * path is compared with, worked out once (a line may hold thousands of paths).
 */
export class SensitiveResolution {
  readonly resolver = new PathResolver();
  private places: { agenvoy: string[]; roots: string[] } | null = null;

  constructor(readonly options: SensitiveOptions) {}

  /** $AGENVOY_HOME as written and real; the folders whose containers count as sensitive (`wide`). */
  locations(): { agenvoy: string[]; roots: string[] } {
    if (this.places) return this.places;
    const { homes, agenvoyHome } = this.options;
    const real = (target: string) => this.resolver.resolve(target);
    this.places = {
      agenvoy: [path.resolve(agenvoyHome), real(agenvoyHome)],
      roots: [
        ...homes.flatMap((home) =>
          SENSITIVE_HOME_DIRS.flatMap((dir) => [path.join(home, dir), real(path.join(home, dir))]),
        ),
        path.resolve(agenvoyHome),
      ],
    };
    return this.places;
  }
}

/** What sensitive location a text names, if any. `wide` also counts folders that contain one (`ls ~`). */
export function sensitivePath(
  text: string,
  options: SensitiveOptions,
  wide = false,
  resolution: SensitiveResolution = new SensitiveResolution(options),
): string | null {
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
    if (isInside(resolved, agenvoyHome)) return AGENVOY;
    const process = processLocation(expanded) ?? processLocation(resolved);
    if (process) return process;
    absolute.push(resolved);
  }
  if (!wide) return null;
  // The named reason is more useful, so containing folders are only looked at once no word names a location.
  return containedLocation(absolute, resolution);
}

/**
 * What sensitive location `target` really is, resolved as a path from each of `bases` through every symlink
 * (a link in the workspace to ~/.ssh is ~/.ssh), in both readings of `..` (the kernel's and `cd`'s), or null. A
 * regular file with more than one name (a hard link) counts as sensitive: its other name may be a secret.
 * `wide` as for sensitivePath.
 */
export function resolvedLocation(
  target: string,
  bases: readonly string[],
  options: SensitiveOptions,
  wide: boolean,
  resolution: SensitiveResolution = new SensitiveResolution(options),
): string | null {
  if (target === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return null;
  const expanded = expandHome(target, options);
  const starts = path.isAbsolute(expanded) ? ['/'] : bases;
  const { agenvoy } = resolution.locations();
  const resolved: string[] = [];
  for (const base of starts) {
    for (const real of readings(resolution.resolver, expanded, base)) {
      const named = namedLocation(real) ?? processLocation(real);
      if (named) return named;
      if (agenvoy.some((home) => isInside(real, home))) return AGENVOY;
      if (resolution.resolver.hardLinked(real)) return HARD_LINK;
      resolved.push(real);
    }
  }
  return wide ? containedLocation(resolved, resolution) : null;
}

// A folder that contains one of the home's secret stores (or $AGENVOY_HOME): listing or archiving it reaches them.
function containedLocation(absolute: readonly string[], resolution: SensitiveResolution): string | null {
  const { roots } = resolution.locations();
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
    // A glob with almost no literal text (`*`, `$(…)` read as `*`) would name every command: only specific ones count.
    if (globLiteralLength(word) < 3) return null;
    const glob = shellGlob(word);
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
  glob: ShellGlob | null;
}

/** The sensitive name a path contains as consecutive segments (`.ssh`, `.kube/config`…), or null. */
export function namedLocation(raw: string): string | null {
  const hasNeedle = (text: string) => NEEDLES.some((needle) => text.includes(needle));
  // As a case-insensitive file system reads it (`~/.ſsh` is `~/.ssh` on APFS and NTFS): tools/sdk/name-fold.ts.
  const word = foldName(raw);
  if (!hasShellGlob(word) && !hasNeedle(word)) return null;
  const segments = word
    .split(/[\\/]+/)
    .filter((text) => text.length > 0)
    .map(toSegment);
  if (!segments.some((segment) => segment.glob) && !hasNeedle(word)) return null;
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
  // Windows drops a name's trailing dots and spaces: `.ssh.` is `.ssh` there.
  if (!hasShellGlob(text)) return { text: text.replace(/^(.*[^. ])[. ]+$/, '$1'), glob: null };
  return { text, glob: text.startsWith('.') || globLiteralLength(text) >= 3 ? shellGlob(text) : null };
}

function segmentMatches(segment: Segment, pattern: SegmentPattern): boolean {
  return segment.glob ? segment.glob.test(pattern.sample) : pattern.test.test(segment.text);
}

/** `~`, `$HOME`, `${HOME}` and `$AGENVOY_HOME` at the start of a word, expanded. */
export function expandHome(word: string, options: SensitiveOptions): string {
  if (word[0] !== '~' && word[0] !== '$') return word;
  const home = options.homes[0] ?? '/';
  return word
    .replace(/^~(?=\/|\\|$)/, home)
    .replace(/^\$\{?HOME\}?(?=\/|\\|$)/, home)
    .replace(/^\$\{?AGENVOY_HOME\}?(?=\/|\\|$)/, options.agenvoyHome);
}

/** Sensitive locations for this user: every home folder we can know of (os.homedir() and $HOME) and $AGENVOY_HOME. */
export function sensitiveOptions(
  agenvoyHome: string,
  env: NodeJS.ProcessEnv = process.env,
): SensitiveOptions {
  const homes = [os.homedir(), env.HOME]
    .filter((home): home is string => typeof home === 'string' && home.length > 0)
    .map((home) => path.resolve(home));
  return { homes: [...new Set(homes)], agenvoyHome: path.resolve(agenvoyHome) };
}

// What /proc holds for the whole system, the same for every process: the rest of /proc is a process's own
// (/proc/self, /proc/<pid>, and the links into them: /proc/net, /proc/mounts…).
const SYSTEM_PROC = new Set([
  'version',
  'cpuinfo',
  'meminfo',
  'loadavg',
  'uptime',
  'stat',
  'filesystems',
  'partitions',
  'swaps',
  'vmstat',
  'diskstats',
  'interrupts',
  'devices',
  'modules',
  'sys',
  'pressure',
  // Links into /proc/self that show what the process's namespace holds, harmless to read.
  'mounts',
  'net',
]);

// A process's own standard streams (`/dev/stdin`, `/dev/stderr`, `/dev/fd/0`-`2` lead there): the tool's, not another
// process's files.
const STANDARD_STREAM = /^\/proc\/(?:self|thread-self)\/fd\/[012]$/;

/**
 * A process's files or environment (docs/security.md, "Process files"): an absolute path into /proc other than the
 * system-wide files, as written (`/proc/sel?/cwd`, `/proc/net/../environ` kept unresolved by real-path.ts). Whose
 * process it is depends on who opens it, which the gate cannot tell for a tool that runs as another process.
 */
export function processLocation(absolute: string): string | null {
  if (path.sep !== '/' || !absolute.startsWith('/proc/')) return null;
  const parts = absolute
    .slice('/proc/'.length)
    .split('/')
    .filter((part) => part !== '' && part !== '.');
  // A `..` under /proc was kept as written past a link (real-path.ts): where it leads is unknown.
  if (parts.includes('..')) return PROCESS_FILES;
  if (STANDARD_STREAM.test(`/proc/${parts.join('/')}`)) return null;
  const first = parts[0];
  if (first === undefined || SYSTEM_PROC.has(first)) return null;
  return PROCESS_FILES;
}

const PROCESS_FILES = "a process's files or environment (/proc/<pid>, /proc/self)";
