// What stays read-only inside a writable workspace (docs/security.md): files that make a later, unsandboxed program
// run code (shell start-up files, git hooks and config, editor settings, direnv and npm config) and the workspace's
// own Agenvoy tools. The runtime computes such a list from process.cwd(), which is not the workspace, so the
// sandbox passes this one instead.
import fs from 'node:fs/promises';
import path from 'node:path';

/** Files that make a later program in this folder run code or trust something: protected where they exist. */
export const PROTECTED_FILES: readonly string[] = [
  '.gitmodules',
  '.gitconfig',
  '.envrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.mcp.json',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.profile',
  '.ripgreprc',
];

/** Folders whose contents run code later (editor tasks, agent commands): protected where they exist. */
export const PROTECTED_DIRS: readonly string[] = ['.vscode', '.idea', '.claude'];

/**
 * This app's own workspace tools: protected even while missing (the runtime covers a missing path with a
 * read-only placeholder for the run), so no command can plant a tool in a folder the person trusts.
 */
export const ALWAYS_PROTECTED: readonly string[] = ['.config/agenvoy'];

// How deep the scan looks for nested repositories and protected names, and how many folders it reads at most:
// a bounded cost per command (node_modules and other dependency folders are skipped).
const SCAN_DEPTH = 3;
const SCAN_DIRS = 400;
const SKIP = new Set(['node_modules', '.venv', 'venv', '__pycache__', 'target', 'dist', 'build', '.cache']);

/**
 * The absolute paths under `workspace` that a sandboxed command may not write: the protected names where they
 * exist (at the top and in sub-folders down to a bounded depth), git hooks and config of every repository found,
 * and this app's workspace tools. When the workspace is a home folder, missing start-up files are protected too.
 */
export async function protectedPaths(workspace: string, homes: readonly string[] = []): Promise<string[]> {
  const found = new Set<string>(ALWAYS_PROTECTED.map((name) => path.join(workspace, name)));
  const isHome = homes.some((home) => path.resolve(home) === path.resolve(workspace));
  if (isHome) for (const name of PROTECTED_FILES) found.add(path.join(workspace, name));
  let budget = SCAN_DIRS;
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (budget-- <= 0) return;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.name === '.git') {
        // A repository (a .git folder) or a worktree/submodule link (a .git file): hooks and config run programs.
        if (entry.isDirectory()) {
          found.add(path.join(full, 'hooks'));
          found.add(path.join(full, 'config'));
        } else found.add(full);
        continue;
      }
      if (PROTECTED_FILES.includes(entry.name) || PROTECTED_DIRS.includes(entry.name)) found.add(full);
      if (entry.isDirectory() && !SKIP.has(entry.name) && depth < SCAN_DEPTH) await walk(full, depth + 1);
    }
  };
  await walk(workspace, 0);
  return [...found];
}
