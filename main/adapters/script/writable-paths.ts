// The `writable` key of a global script tool's tool.json (docs/security.md): the folders the OS sandbox lets the tool
// write besides the workspace. Resolved when the tool folder loads; a path that would open the whole home folder,
// Agenvoy's own files (settings, rules, trusted folders, the secret file, other tools) or a credential folder is
// refused with a reason naming the entry, and the tool does not load.
import fs from 'node:fs/promises';
import path from 'node:path';
import { SENSITIVE_HOME_DIRS, SENSITIVE_NAMES } from '../../gate/sensitive-names';

/** Where `~`, relative paths and Agenvoy's own folder are. */
export interface WritableContext {
  /** The tool folder: relative entries are relative to it, and it is always writable. */
  toolDir: string;
  /** The home folder `~` expands to. */
  homeDir: string;
  /** $AGENVOY_HOME. */
  agenvoyHome: string;
}

/** The resolved folders (the tool's own first), or why an entry is refused. */
export type WritableResult = { ok: true; paths: string[] } | { ok: false; reason: string };

/** Resolves and checks tool.json's `writable` entries of a global tool; the tool's own folder always comes first. */
export async function resolveWritable(
  declared: readonly string[],
  context: WritableContext,
): Promise<WritableResult> {
  const toolDirs = await forms(context.toolDir);
  const places: Places = {
    toolDirs,
    homes: await forms(context.homeDir),
    agenvoyHomes: await forms(context.agenvoyHome),
  };
  const paths = [toolDirs[toolDirs.length - 1] as string];
  for (const entry of declared) {
    const literal = expand(entry, context);
    if (literal === null)
      return { ok: false, reason: `"writable" entry ${JSON.stringify(entry)}: only ~ and ~/… expand` };
    const real = await realpathLoose(literal);
    // A symlink must not smuggle a refused folder in: the path as written and where it leads are both checked.
    for (const candidate of new Set([literal, real])) {
      const refused = refusal(candidate, places);
      if (refused) return { ok: false, reason: `"writable" entry ${JSON.stringify(entry)} ${refused}` };
    }
    if (!paths.includes(real)) paths.push(real);
  }
  return { ok: true, paths };
}

interface Places {
  toolDirs: string[];
  homes: string[];
  agenvoyHomes: string[];
}

function expand(entry: string, context: WritableContext): string | null {
  const text = entry.trim();
  if (text === '~') return path.resolve(context.homeDir);
  if (text.startsWith('~/') || text.startsWith(`~${path.sep}`))
    return path.resolve(context.homeDir, text.slice(2));
  // `~user` would need a user database look-up; nobody needs another user's folder writable.
  if (text.startsWith('~')) return null;
  return path.resolve(context.toolDir, text);
}

function refusal(candidate: string, places: Places): string | null {
  if (path.parse(candidate).root === candidate) return 'is the root of the file system';
  for (const home of places.homes) {
    if (same(candidate, home)) return 'is the home folder itself';
    if (inside(home, candidate)) return 'contains the home folder';
  }
  for (const agenvoy of places.agenvoyHomes) {
    const desktop = path.join(agenvoy, 'desktop');
    if (inside(candidate, desktop) || inside(desktop, candidate))
      return `reaches $AGENVOY_HOME/desktop (${desktop}): settings, approval rules and trusted folders`;
    const secrets = path.join(agenvoy, '.secrets');
    if (inside(candidate, secrets) || inside(secrets, candidate))
      return `reaches the secret file ($AGENVOY_HOME/.secrets)`;
    // mcp.json and other tools' folders would let the tool start programs that never asked.
    if (inside(candidate, agenvoy) && !places.toolDirs.some((own) => inside(candidate, own)))
      return `is inside $AGENVOY_HOME (${agenvoy}) but outside the tool's own folder`;
  }
  const segments = candidate.split(path.sep).filter(Boolean);
  if (segments.some((segment) => segment.toLowerCase() === '.secrets'))
    return 'reaches a secret file (.secrets)';
  for (const home of places.homes) {
    for (const dir of SENSITIVE_HOME_DIRS) {
      const location = path.join(home, dir);
      if (inside(candidate, location) || inside(location, candidate))
        return `reaches a credential folder (${location})`;
    }
  }
  for (const name of SENSITIVE_NAMES) {
    // Agenvoy's own folder is handled above: a global tool's own folder lives in it.
    if (name.segments.some((segment) => segment.sample === 'agenvoy')) continue;
    const span = name.segments.length;
    for (let i = 0; i + span <= segments.length; i++) {
      if (name.segments.every((segment, j) => segment.test.test(segments[i + j] as string)))
        return `reaches ${name.label}`;
    }
  }
  return null;
}

// The folder as given and where it really is (they differ behind a symlink), without repeats.
async function forms(folder: string): Promise<string[]> {
  const resolved = path.resolve(folder);
  return [...new Set([resolved, await realpathLoose(resolved)])];
}

// realpath of the longest existing part, with the rest appended: a folder the tool creates later still resolves.
async function realpathLoose(target: string): Promise<string> {
  let existing = target;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(await fs.realpath(existing), ...rest);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return target;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

const foldCase = process.platform === 'darwin' || process.platform === 'win32';

function same(a: string, b: string): boolean {
  return foldCase ? a.toLowerCase() === b.toLowerCase() : a === b;
}

// Whether `child` is `parent` or lies under it.
function inside(child: string, parent: string): boolean {
  const [c, p] = foldCase ? [child.toLowerCase(), parent.toLowerCase()] : [child, parent];
  if (c === p) return true;
  return c.startsWith(p.endsWith(path.sep) ? p : p + path.sep);
}
