// The `writable` key of a global script tool's tool.json (docs/security.md): the folders the OS sandbox lets the tool
// write besides the workspace. Resolved when the tool folder loads; a path that would open the whole home folder,
// Agenvoy's own files (settings, rules, trusted folders, the secret file, other tools) or a credential folder is
// refused with a reason naming the entry, and the tool does not load. So is a place from which a later program runs
// what the tool wrote (tools/sdk/protected-names.ts): shell start-up files and anything else directly in the home
// folder, autostart, systemd, launchers, launchd, cron, every folder on PATH, git's and editors' config, and the
// folders of other tools (global or workspace) or one holding the tool's own folder.
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  autorunReason,
  commandFolders,
  HOME_AUTORUN_DIRS,
  HOME_PATH_DIRS,
  protectedPartsReason,
  SHELL_STARTUP_FILES,
  SYSTEM_AUTORUN_DIRS,
  within,
} from '../../../tools/sdk/protected-names';
import { SENSITIVE_HOME_DIRS, SENSITIVE_NAMES } from '../../../tools/sdk/sensitive-names';

/** Where `~`, relative paths and Agenvoy's own folder are. */
export interface WritableContext {
  /** The tool folder: relative entries are relative to it, and it is always writable. */
  toolDir: string;
  /** The home folder `~` expands to. */
  homeDir: string;
  /** $AGENVOY_HOME. */
  agenvoyHome: string;
  /** The PATH whose folders may not be written (default: this process's, which child processes inherit). */
  pathEnv?: string;
}

/** The resolved folders (the tool's own first), or why an entry is refused. */
export type WritableResult = { ok: true; paths: string[] } | { ok: false; reason: string };

/** Resolves and checks tool.json's `writable` entries of a global tool; the tool's own folder always comes first. */
export async function resolveWritable(
  declared: readonly string[],
  context: WritableContext,
): Promise<WritableResult> {
  const toolDirs = await forms(context.toolDir);
  const own = toolDirs[toolDirs.length - 1] as string;
  // Nothing declared (most tools): only the tool's own folder, with no need to look at the places below. Looking
  // anyway read every other tool folder once per tool, quadratic in a folder of 500 tools (1.1 s of `tools search`).
  if (declared.length === 0) return { ok: true, paths: [own] };
  const homes = await forms(context.homeDir);
  const places: Places = {
    toolDirs,
    homes,
    agenvoyHomes: await forms(context.agenvoyHome),
    commandFolders: commandFolders(homes, context.pathEnv ?? process.env.PATH),
    otherTools: await otherToolFolders(context.toolDir),
  };
  const paths = [own];
  for (const entry of declared) {
    const literal = expand(entry, context);
    if (literal === null)
      return { ok: false, reason: `"writable" entry ${JSON.stringify(entry)}: only ~ and ~/… expand` };
    const real = await realpathLoose(literal);
    // A symlink must not smuggle a refused folder in: the path as written and where it leads are both checked.
    for (const candidate of new Set([literal, real])) {
      const refused = refusal(candidate, places) ?? (await laterRunRefusal(candidate, places));
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
  /** PATH folders and the home folders that join PATH at login. */
  commandFolders: string[];
  /** The real folders of the other tools beside this one. */
  otherTools: string[];
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

// A place from which a later program would run what the tool writes there (tools/sdk/protected-names.ts), a folder
// holding such a place, or another tool's folder: the tool could start code outside any sandbox, or rewrite a tool
// that may run without asking and receive secrets.
async function laterRunRefusal(candidate: string, places: Places): Promise<string | null> {
  for (const home of places.homes) {
    if (path.dirname(candidate) !== home) continue;
    const name = path.basename(candidate);
    if (SHELL_STARTUP_FILES.includes(name.toLowerCase()))
      return `is a shell start-up file (${name}): a shell that starts later would run what the tool writes`;
    // Dot files and folders there are configuration programs read at start (and run code from); a plain file is
    // the person's own. Only an existing, ordinary folder directly in the home folder may be given.
    if (name.startsWith('.') || !(await isFolder(candidate)))
      return 'is directly in the home folder: only an existing folder there that is not a dot folder may be writable';
  }
  const parts = protectedPartsReason(candidate.split(path.sep).filter(Boolean));
  if (parts) return `reaches ${parts}`;
  const autorun = autorunReason(candidate, places.homes);
  if (autorun) return `reaches a place programs start from: ${autorun}`;
  for (const folder of places.commandFolders) {
    if (within(candidate, folder) || within(folder, candidate))
      return `reaches ${folder}, a folder commands are found in (PATH): a program put there runs in place of a command`;
  }
  const held = [
    ...places.homes.flatMap((home) =>
      [...HOME_AUTORUN_DIRS, ...HOME_PATH_DIRS].map((dir) => path.join(home, dir)),
    ),
    ...SYSTEM_AUTORUN_DIRS,
  ].find((location) => within(location, candidate));
  if (held) return `holds ${held}, from which programs start by themselves`;
  for (const other of places.otherTools) {
    if (within(candidate, other) || within(other, candidate))
      return `reaches another tool's folder (${other}): a tool may not change what another tool runs`;
  }
  for (const own of places.toolDirs) {
    if (within(own, candidate) && !same(own, candidate))
      return `holds the tool's own folder (${own}): the tool could replace its own tool.json and script`;
  }
  return null;
}

// The real folders of the other entries in the tool's scan folder (tools and their helpers), which may be links
// into the person's own checkouts.
async function otherToolFolders(toolDir: string): Promise<string[]> {
  const scan = path.dirname(path.resolve(toolDir));
  const own = await realpathLoose(path.resolve(toolDir));
  const names = await fs.readdir(scan).catch(() => [] as string[]);
  const folders = await Promise.all(names.map((name) => realpathLoose(path.join(scan, name))));
  return [...new Set(folders)].filter((folder) => folder !== own);
}

async function isFolder(candidate: string): Promise<boolean> {
  return (await fs.stat(candidate).catch(() => null))?.isDirectory() === true;
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
