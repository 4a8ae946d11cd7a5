// What stays read-only, or hidden, inside a writable workspace (docs/security.md): files that make a later,
// unsandboxed program run code (git config and hooks of every repository, shell start-up files, editor tasks,
// direnv and npm config), this app's workspace tools, and .env files at any depth. The runtime computes a
// protected list from process.cwd(), which is not the workspace, so the sandbox passes this one instead.
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  APP_TOOL_DIR,
  commandFolders,
  HOME_AUTORUN_DIRS,
  PROTECTED_DIRS,
  PROTECTED_FILES,
  SYSTEM_AUTORUN_DIRS,
  within,
} from '../../tools/sdk/protected-names';
import { hooksPathOf } from '../../tools/sdk/hooks-path';
import { KEY_FILE_EXTENSIONS } from '../../tools/sdk/sensitive-names';

// The protected names are the one list the safe writer also refuses (tools/sdk/protected-names.ts).
const FILES = new Set(PROTECTED_FILES.map((name) => name.toLowerCase()));
const DIRS = new Set([...PROTECTED_DIRS, '.hg'].map((name) => name.toLowerCase()));

/**
 * This app's own workspace tools: protected even while missing (the runtime covers a missing path with a
 * read-only placeholder for the run), so no command can plant a tool in a folder the person trusts.
 */
export const ALWAYS_PROTECTED: readonly string[] = [APP_TOOL_DIR.join('/')];

/** Inside a `.git` folder: what git reads to decide which programs to run, and where else to read it from. */
export const GIT_CONTROL: readonly string[] = ['config', 'config.worktree', 'hooks', 'commondir', 'info'];

/** Names that hold secrets wherever they are in the workspace: .env, .env.local…, .envrc. */
export const SECRET_FILE = /^\.env(\..+)?$|^\.envrc$/;

/**
 * The walk reads at most this many folders (a bounded cost per command); dependency folders are not entered. A
 * workspace with more is not sandboxed at all (`runtime-sandbox.ts`): what the walk did not reach would be neither
 * hidden nor kept read-only.
 */
export const SCAN_DIRS = 5000;
// Installed packages and byte-code caches: a Python virtualenv alone holds thousands of folders (8,400 in one
// data-science site-packages), which would put an ordinary project past the budget. Like node_modules, they hold
// what an installer wrote, not the person's own `.env` or repositories (docs/security.md).
const SKIP = new Set(['node_modules', 'site-packages', 'dist-packages', '__pycache__']);

/** What one walk of the workspace found. */
export interface WorkspaceScan {
  /** Paths a sandboxed command may not write. */
  readOnly: string[];
  /** .env-style files it may not read. */
  secrets: string[];
  /** Every `.git` folder or file (a repository, a worktree or submodule link), at any depth. */
  repositories: string[];
  /** The submodule git folders (`.git/modules/<name>`) of those repositories, which git reuses when it finds one. */
  moduleFolders: string[];
  /** Whether the walk stopped at its folder budget (the rest was not looked at). */
  truncated: boolean;
}

/**
 * Walks the workspace once. Protected names are protected where they exist, git control files of every
 * repository found, and this app's tools always; when the workspace is a home folder, missing start-up files too;
 * and, present or missing, every folder inside it from which programs start later or commands are found
 * (`startupFolders`).
 */
export async function scanWorkspace(
  workspace: string,
  homes: readonly string[] = [],
  pathValue: string | undefined = process.env.PATH,
): Promise<WorkspaceScan> {
  const readOnly = new Set<string>(ALWAYS_PROTECTED.map((name) => path.join(workspace, name)));
  const secrets: string[] = [];
  const repositories: string[] = [];
  const moduleFolders: string[] = [];
  const isHome = homes.some((home) => path.resolve(home) === path.resolve(workspace));
  if (isHome) for (const name of PROTECTED_FILES) readOnly.add(path.join(workspace, name));
  for (const folder of startupFolders(workspace, homes, pathValue)) readOnly.add(folder);
  // A repository with more submodule folders than are looked at is as unprotected as an unread folder.
  let modulesTruncated = false;
  const truncated = await walkFolders(workspace, async (dir, entries) => {
    const next: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.name === '.git') {
        repositories.push(full);
        if (entry.isDirectory()) {
          const control = await gitControlFiles(full);
          for (const file of control.files) readOnly.add(file);
          moduleFolders.push(...control.modules);
          if (control.truncated) modulesTruncated = true;
          // Hooks the repository's config moved into the work tree (core.hooksPath): as read-only as .git/hooks.
          const hooks = hooksPathOf(full, dir);
          if (hooks !== null && within(hooks, workspace) && path.resolve(hooks) !== path.resolve(workspace))
            readOnly.add(hooks);
        } else readOnly.add(full);
        continue;
      }
      // Compared case-insensitively, as macOS and Windows file systems read names.
      const lower = entry.name.toLowerCase();
      if (FILES.has(lower) || DIRS.has(lower)) readOnly.add(full);
      if (SECRET_FILE.test(entry.name) && !entry.isDirectory()) secrets.push(full);
      if (entry.isDirectory() && !SKIP.has(entry.name)) next.push(full);
    }
    return next;
  });
  return {
    readOnly: [...readOnly],
    secrets,
    repositories,
    moduleFolders,
    truncated: truncated || modulesTruncated,
  };
}

/**
 * The .env-style files directly in each folder above the workspace, up to the root. A home folder is hidden whole,
 * but a workspace outside it (`/srv/monorepo/packages/web`, `/var/www/site`) sat under a monorepo's root `.env` or a
 * server's shared one, which a command read as `../../.env` (`ancestor-env-attack.test.ts`). Deeper files of other
 * folders up there (a sibling package's `.env`) are not looked for.
 */
export async function ancestorSecrets(workspace: string): Promise<string[]> {
  const folders: string[] = [];
  for (let dir = path.resolve(workspace); path.dirname(dir) !== dir;) {
    dir = path.dirname(dir);
    folders.push(dir);
  }
  const listed = await Promise.all(
    folders.map(async (dir) => {
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      return entries
        .filter((entry) => SECRET_FILE.test(entry.name) && !entry.isDirectory())
        .map((entry) => path.join(dir, entry.name));
    }),
  );
  return listed.flat();
}

/**
 * Key and credential files hidden in the rest of a repository around a workspace, besides `.env`-style ones: a
 * deploy key, a TLS key, a git or netrc credential file committed or left beside another package.
 */
export const KEY_FILE = new RegExp(
  `^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$|\\.(${KEY_FILE_EXTENSIONS.join('|')})$|^\\.git-credentials$|^\\.netrc$|^\\.pgpass$`,
  'i',
);

/** The .env-style files of the repository around a workspace, outside it; `truncated` when the walk stopped early. */
export interface RepositorySecrets {
  /** The repository's top folder, when one holds the workspace and lies outside every home folder. */
  root: string | null;
  secrets: string[];
  truncated: boolean;
}

/**
 * The .env-style and key files anywhere in the repository that holds the workspace, outside the workspace itself: a
 * workspace that is one package of a monorepo outside the home (`/srv/monorepo/packages/web`) sat beside the other
 * packages' `.env` files, which a command read as `../api/.env` (`sibling-env-attack.test.ts`). The repository is
 * the nearest folder above the workspace holding `.git`; inside a home folder nothing is looked for, since the home
 * is hidden whole but for the call's own folders. The walk is the workspace's: breadth first, installed packages not
 * entered, at most SCAN_DIRS folders.
 */
export async function repositorySecrets(
  workspace: string,
  homes: readonly string[] = [],
): Promise<RepositorySecrets> {
  const root = await enclosingRepository(workspace);
  if (root === null || homes.some((home) => within(root, home)))
    return { root: null, secrets: [], truncated: false };
  // The workspace was walked already; a home folder inside the repository is hidden whole.
  const skip = new Set([workspace, ...homes].map((dir) => path.resolve(dir)));
  const secrets: string[] = [];
  const truncated = await walkFolders(root, (dir, entries) => {
    const next: string[] = [];
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git' && !SKIP.has(entry.name) && !skip.has(full)) next.push(full);
      } else if (SECRET_FILE.test(entry.name) || KEY_FILE.test(entry.name)) secrets.push(full);
    }
    return next;
  });
  return { root, secrets, truncated };
}

/**
 * Walks folders breadth first from `root`, one level read in parallel (no recursion, and the budget goes to shallow
 * folders first), at most `budget` of them. `visit` sees each folder's entries and returns the folders to enter.
 * True when folders were left unread at the budget.
 */
async function walkFolders(
  root: string,
  visit: (dir: string, entries: Dirent[]) => string[] | Promise<string[]>,
  budget: number = SCAN_DIRS,
): Promise<boolean> {
  let level = [root];
  // Folders of a level the budget did not reach: the walk is truncated even when those it read hold none.
  let unread = 0;
  while (level.length > 0 && budget > 0) {
    const batch = level.slice(0, budget);
    budget -= batch.length;
    unread = level.length - batch.length;
    const listed = await Promise.all(
      batch.map(async (dir) => ({
        dir,
        entries: await fs.readdir(dir, { withFileTypes: true }).catch(() => []),
      })),
    );
    const next: string[] = [];
    for (const { dir, entries } of listed) next.push(...(await visit(dir, entries)));
    level = next;
  }
  return level.length > 0 || unread > 0;
}

// The nearest folder above `workspace` that holds a `.git` folder or file, or null.
async function enclosingRepository(workspace: string): Promise<string | null> {
  for (let dir = path.resolve(workspace); path.dirname(dir) !== dir;) {
    dir = path.dirname(dir);
    if (await exists(path.join(dir, '.git'))) return dir;
  }
  return null;
}

/**
 * The folders inside `workspace` (a home folder, or one holding it) from which a program starts later, unconfined:
 * a home's autostart, service, launcher and git-config folders (`HOME_AUTORUN_DIRS`), the PATH folders a login adds
 * (`~/.local/bin`, `~/bin`), the absolute PATH entries and system autorun folders that lie inside it. The safe writer
 * refuses the same places (tools/sdk/protected-write.ts). PATH entries inside a node_modules folder are the
 * project's own (npm rewrites them on install) and stay writable.
 */
export function startupFolders(
  workspace: string,
  homes: readonly string[],
  pathValue: string | undefined,
): string[] {
  const inside = homes.filter((home) => within(home, workspace));
  const candidates = [
    ...inside.flatMap((home) => HOME_AUTORUN_DIRS.map((dir) => path.join(home, dir))),
    ...commandFolders(inside, pathValue).filter((folder) => !folder.split(path.sep).includes('node_modules')),
    ...SYSTEM_AUTORUN_DIRS,
  ];
  return [
    ...new Set(
      candidates.filter(
        (folder) => within(folder, workspace) && path.resolve(folder) !== path.resolve(workspace),
      ),
    ),
  ];
}

// The control files of one .git folder that exist, and those of its submodules' (at any depth) and worktrees' git
// folders; and those submodule folders.
async function gitControlFiles(
  gitDir: string,
): Promise<{ files: string[]; modules: string[]; truncated: boolean }> {
  const worktrees = (await fs.readdir(path.join(gitDir, 'worktrees')).catch(() => [] as string[])).map(
    (name) => path.join(gitDir, 'worktrees', name),
  );
  const modules = await moduleGitDirs(gitDir);
  const dirs = [gitDir, ...worktrees, ...modules.dirs];
  const candidates = dirs.flatMap((dir) => [...GIT_CONTROL, 'gitdir'].map((name) => path.join(dir, name)));
  const present = await Promise.all(candidates.map((file) => exists(file)));
  // config and hooks are kept read-only even while missing; a missing commondir cannot be (git would fail to read
  // the placeholder), so a new one is caught after the run (reviewGitChanges).
  const always: string[] = [];
  for (const dir of [gitDir, ...modules.dirs]) {
    always.push(path.join(dir, 'config'), path.join(dir, 'hooks'));
    // A missing `modules` folder too: `git submodule update --init` reuses a `modules/<name>` it finds, hooks and
    // config included, and runs them unconfined (submodule-folder-attack.test.ts). One that exists gets new folders
    // removed after the run (reviewGitChanges), so submodules already there keep updating.
    if (!(await exists(path.join(dir, 'modules')))) always.push(path.join(dir, 'modules'));
  }
  return {
    files: [...new Set([...always, ...candidates.filter((_, i) => present[i])])],
    modules: modules.dirs,
    truncated: modules.truncated,
  };
}

/** Most folders looked at under one repository's `.git/modules` (each submodule's git folder is one). */
export const MODULE_DIRS = 1000;

/**
 * The submodules' git folders under `gitDir/modules`, at any depth: a submodule named with a slash (`vendor/lib`,
 * git's default name for that path) lives in `modules/vendor/lib`, and a submodule's own submodules in its own
 * `modules` folder. A git folder is one holding `HEAD` or `config`; inside it only `modules` is entered, and any
 * other folder is a part of a name whose folders are looked into. The person's `git
 * status` ran a `core.fsmonitor` a command had set in such a folder (nested-submodule-attack.test.ts).
 */
async function moduleGitDirs(gitDir: string): Promise<{ dirs: string[]; truncated: boolean }> {
  const dirs: string[] = [];
  const truncated = await walkFolders(
    path.join(gitDir, 'modules'),
    async (dir, entries) => {
      const next: string[] = [];
      for (const entry of entries) {
        if (!entry.isDirectory()) continue;
        const full = path.join(dir, entry.name);
        const git = (await exists(path.join(full, 'HEAD'))) || (await exists(path.join(full, 'config')));
        if (git) dirs.push(full);
        next.push(git ? path.join(full, 'modules') : full);
      }
      return next;
    },
    MODULE_DIRS,
  );
  return { dirs, truncated };
}

/**
 * After a run: what the command did to git that runs code later and could not be kept read-only beforehand.
 * A new `commondir` or `config.worktree` in a repository that existed is removed (it would make git read another
 * config), and so is a new submodule git folder (`.git/modules/<name>`, which git reuses with its hooks); a new
 * repository or worktree link is reported.
 */
export async function reviewGitChanges(before: WorkspaceScan, workspace: string): Promise<string[]> {
  const notes: string[] = [];
  for (const gitDir of before.repositories) {
    for (const name of ['commondir', 'config.worktree']) {
      const file = path.join(gitDir, name);
      if (before.readOnly.includes(file) || !(await exists(file))) continue;
      await fs.rm(file, { force: true });
      notes.push(
        `removed ${file}, which the command created: it would make git read another repository's config`,
      );
    }
  }
  const after = await scanWorkspace(workspace);
  const knownModules = new Set(before.moduleFolders);
  for (const folder of after.moduleFolders) {
    if (knownModules.has(folder) || !before.repositories.some((gitDir) => within(folder, gitDir))) continue;
    await fs.rm(folder, { recursive: true, force: true });
    notes.push(
      `removed ${folder}, which the command created: git would reuse it, hooks and config unchecked, when a ` +
        'submodule is initialised outside the sandbox',
    );
  }
  const known = new Set(before.repositories);
  for (const repository of after.repositories) {
    if (known.has(repository)) continue;
    notes.push(
      `the command created a git repository or link at ${repository}: its config and hooks were not checked and ` +
        'run programs when git is used there',
    );
  }
  return notes;
}

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(
    () => true,
    () => false,
  );
}
