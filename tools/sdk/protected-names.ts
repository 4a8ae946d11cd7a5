// The one list of places whose files make a later program run code (docs/security.md, "Files the tools write"):
// git's and Mercurial's control folders, this app's workspace tools, editor and agent folders, direnv/npm/yarn/git
// config, shell start-up files, and in the home folder the autostart, service, launcher and PATH folders. The safe
// writer refuses them, global script tools may not declare them `writable`, and the OS sandbox keeps them read-only
// (main/sandbox/workspace-protection.ts imports these lists). Names compare case-insensitively, as macOS and
// Windows file systems do, so `.GIT/config` is `.git/config` there and refused everywhere.
import path from 'node:path';
import { foldName } from './name-fold';

/** Version-control folders whose config and hooks run programs: nothing may be written through one, at any depth. */
export const CONTROL_DIRS: readonly string[] = ['.git', '.hg'];

/**
 * Folders whose files run programs when an editor opens the folder or an agent or git starts in it (VS Code tasks,
 * JetBrains run configurations, Claude Code and Cursor hooks and MCP servers, husky's git hooks): at any depth.
 */
export const PROTECTED_DIRS: readonly string[] = ['.vscode', '.idea', '.claude', '.cursor', '.husky'];

/** This app's workspace tools (`.config/agenvoy`): consecutive folder names, protected at any depth. */
export const APP_TOOL_DIR: readonly string[] = ['.config', 'agenvoy'];

/** Shell and session start-up files: a shell or login that starts later runs them. */
export const SHELL_STARTUP_FILES: readonly string[] = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.kshrc',
  '.mkshrc',
  '.cshrc',
  '.tcshrc',
  '.login',
  '.logout',
  '.xprofile',
  '.xsessionrc',
  '.xinitrc',
  '.pam_environment',
];

/**
 * Files that make a later program run code or trust something when it starts in (or reads) their folder: submodule
 * commands, git/npm/yarn config (`yarnPath`, scripts), direnv, MCP server lists, ripgrep's `--pre`, the hook
 * managers' command lists (pre-commit, lefthook), and the shell start-up files. Protected at any depth.
 */
export const PROTECTED_FILES: readonly string[] = [
  '.gitmodules',
  '.gitconfig',
  '.envrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.mcp.json',
  '.ripgreprc',
  // Hook managers: the installed git hook runs the commands these list on every commit.
  '.pre-commit-config.yaml',
  '.pre-commit-config.yml',
  'lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yml',
  '.lefthook.yaml',
  'lefthook-local.yml',
  'lefthook-local.yaml',
  '.lefthook-local.yml',
  '.lefthook-local.yaml',
  ...SHELL_STARTUP_FILES,
];

/**
 * Folders under the home folder from which something starts programs by itself (login autostart, user services,
 * desktop launchers, launchd agents), whose config runs programs (`~/.config/git`: fsmonitor; fish), or that hold
 * SSH keys (`authorized_keys`): nothing may be written anywhere inside them.
 */
export const HOME_AUTORUN_DIRS: readonly string[] = [
  '.config/autostart',
  '.config/systemd',
  '.config/environment.d',
  '.config/plasma-workspace',
  '.config/upstart',
  '.config/git',
  '.config/fish',
  '.local/share/systemd',
  '.local/share/applications',
  'Library/LaunchAgents',
  '.ssh',
];

/** Home folders that join PATH at the next login when they exist (Debian's and Ubuntu's ~/.profile adds them). */
export const HOME_PATH_DIRS: readonly string[] = ['.local/bin', 'bin'];

/** Folders outside any home from which the system starts programs: cron, launchd, system services, /etc. */
export const SYSTEM_AUTORUN_DIRS: readonly string[] = [
  '/etc',
  '/var/spool/cron',
  '/var/at',
  '/var/cron',
  '/usr/lib/systemd',
  '/lib/systemd',
  '/Library/LaunchAgents',
  '/Library/LaunchDaemons',
  '/Library/StartupItems',
  '/System',
];

/** Why a path (its parts, below a workspace or from the root) is a protected place, in words; null when it is not. */
export function protectedPartsReason(parts: readonly string[]): string | null {
  const names = parts.map(fold);
  for (const [index, name] of names.entries()) {
    if (CONTROL_DIRS.includes(name))
      return `${shown(parts, index)} is a repository's control folder (${name}): its config and hooks make git or hg run programs`;
    if (PROTECTED_DIRS.includes(name))
      return `${shown(parts, index)} is an editor or agent folder (${name}) whose files run programs when the folder is opened or used`;
    if (name === APP_TOOL_DIR[0] && names[index + 1] === APP_TOOL_DIR[1])
      return `${shown(parts, index + 1)} holds this app's own tools (.config/agenvoy), which may run without asking and receive secrets`;
    if (PROTECTED_FILES.includes(name)) {
      const kind = SHELL_STARTUP_FILES.includes(name) ? 'a shell start-up file' : 'a config file';
      return `${shown(parts, index)} is ${kind} (${name}) that makes a later program run code`;
    }
  }
  return null;
}

/**
 * Why an absolute path lies where programs start by themselves: inside a home folder's autorun folders or a system
 * autorun folder. Null when it does not.
 */
export function autorunReason(target: string, homes: readonly string[]): string | null {
  for (const home of homes) {
    for (const dir of HOME_AUTORUN_DIRS) {
      if (within(target, path.join(home, dir)))
        return `${target} is in ~/${dir}, from which programs start by themselves or which holds keys`;
    }
  }
  for (const location of SYSTEM_AUTORUN_DIRS) {
    if (within(target, location)) return `${target} is in ${location}, from which the system starts programs`;
  }
  return null;
}

/**
 * The folders from which a command name finds its program: the absolute entries of PATH, and the home folders that
 * join PATH at the next login. A file put directly in one runs in place of any command of its name.
 */
export function commandFolders(homes: readonly string[], pathValue: string | undefined): string[] {
  const fromPath = (pathValue ?? '')
    .split(path.delimiter)
    .filter((entry) => entry !== '' && path.isAbsolute(entry))
    .map((entry) => path.resolve(entry));
  const fromHome = homes.flatMap((home) => HOME_PATH_DIRS.map((dir) => path.join(home, dir)));
  return [...new Set([...fromPath, ...fromHome])];
}

/** Why a file would run in place of a command (it lies directly in one of `folders`), or null. */
export function commandFolderReason(file: string, folders: readonly string[]): string | null {
  const parent = path.dirname(path.resolve(file));
  const folder = folders.find((candidate) => fold(candidate) === fold(parent));
  return folder === undefined
    ? null
    : `${file} is directly in ${folder}, a folder commands are found in (PATH): it would run in place of a command of that name`;
}

/** Whether `target` is `folder` or inside it, comparing names case-insensitively. */
export function within(target: string, folder: string): boolean {
  const [t, f] = [fold(path.resolve(target)), fold(path.resolve(folder))];
  if (t === f) return true;
  return t.startsWith(f.endsWith(path.sep) ? f : f + path.sep);
}

// One name as a case-insensitive file system compares it (name-fold.ts), without the trailing dots and spaces
// Windows drops (`.git.` is `.git` there).
function fold(name: string): string {
  return foldName(name).replace(/(?<=[^/\\])[. ]+$/, '');
}

function shown(parts: readonly string[], index: number): string {
  return parts.slice(0, index + 1).join('/');
}
