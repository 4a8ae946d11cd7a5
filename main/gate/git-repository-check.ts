// Which repository git finds for a command under a default rule (docs/security.md). Outside a repository `git diff`
// compares any two paths directly (an implicit --no-index), and a repository that merely contains the workspace
// shows files outside it: both ask. Found as the command's git will find it: the same GIT_CEILING_DIRECTORIES,
// safe.bareRepository=explicit and protections, with `git rev-parse`, which starts no program.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gitCeiling, gitProtectionEnv } from '../../tools/sdk/git-protection';
import { childEnvironment } from '../core/child-env';
import { isInside } from './real-path';

const CHECK_TIMEOUT_MS = 5000;

/** The repository git finds in a folder (real paths), or why git must not run there under a default rule. */
export type FoundRepository =
  | { kind: 'found'; top: string; gitDir: string; commonDir: string }
  | { kind: 'no_git' }
  | { kind: 'refused'; reason: string };

/** Finds the repository of `cwd` and checks that its work tree and git folders are inside `workspace`. */
export async function gitRepository(cwd: string, workspace: string): Promise<FoundRepository> {
  const env = { ...childEnvironment(process.env), ...gitProtectionEnv(await gitCeiling(cwd)) };
  const args = ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'];
  const answer = await revParse(args, cwd, env);
  if (answer === null) return { kind: 'no_git' };
  if (!answer.ok)
    return {
      kind: 'refused',
      reason:
        `git finds no repository with a work tree here (${answer.message}), so git diff would compare files ` +
        'directly (an implicit --no-index); the default read-only rule does not cover git here',
    };
  const [top = '', gitDir = '', commonDir = ''] = answer.lines;
  const real = (dir: string) => fs.realpath(path.resolve(cwd, dir)).catch(() => path.resolve(cwd, dir));
  const found = {
    kind: 'found' as const,
    top: await real(top),
    gitDir: await real(gitDir),
    commonDir: await real(commonDir),
  };
  const outside = [found.top, found.gitDir, found.commonDir].find((dir) => !isInside(dir, workspace));
  if (outside !== undefined)
    return {
      kind: 'refused',
      reason:
        `the repository git finds here (${found.top}, git folder ${found.gitDir}) is not inside the workspace ` +
        `(${outside} is outside it), so git would show files outside it; the default read-only rule does not cover git here`,
    };
  const linked = await linkedOut(found.commonDir, workspace);
  if (linked !== null)
    return {
      kind: 'refused',
      reason:
        `the repository's ${linked.entry} leads outside the workspace (to ${linked.real}), so git would show what ` +
        'another repository holds; the default read-only rule does not cover git here',
    };
  const borrowed = await borrowedFrom(found.commonDir, workspace);
  if (borrowed !== null)
    return {
      kind: 'refused',
      reason:
        `the repository borrows objects from ${borrowed}, outside the workspace (objects/info/alternates, as ` +
        '`git clone --reference` or `--shared` leaves it), so git would show what that repository holds ' +
        '(`git log -p --alternate-refs`); the default read-only rule does not cover git here',
    };
  return found;
}

// What a git folder holds that says which history git shows: a link out of the workspace for any of them shows
// another repository's commits and files.
const HISTORY_ENTRIES = ['objects', 'refs', 'packed-refs', 'logs', 'info', 'shallow', 'HEAD'];

/** The first of the git folder's history entries whose real path lies outside `workspace`, or null. */
async function linkedOut(
  commonDir: string,
  workspace: string,
): Promise<{ entry: string; real: string } | null> {
  for (const entry of HISTORY_ENTRIES) {
    const real = await fs.realpath(path.join(commonDir, entry)).catch(() => null);
    if (real !== null && !isInside(real, workspace)) return { entry, real };
  }
  return null;
}

// The most alternates files followed (an alternate may have its own), and the most bytes read of each.
const MAX_ALTERNATES = 16;
const MAX_ALTERNATES_BYTES = 64 * 1024;

/**
 * The first object folder outside `workspace` that the repository whose git folder is `commonDir` borrows from,
 * through objects/info/alternates and theirs in turn; null when none. A file too large or a chain too long counts
 * as outside (it cannot be checked).
 */
async function borrowedFrom(commonDir: string, workspace: string): Promise<string | null> {
  const queue = [path.join(commonDir, 'objects')];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const objects = queue.shift() as string;
    if (seen.has(objects)) continue;
    if (seen.size >= MAX_ALTERNATES) return `more than ${MAX_ALTERNATES} alternates`;
    seen.add(objects);
    const file = path.join(objects, 'info', 'alternates');
    const stat = await fs.stat(file).catch(() => null);
    if (stat === null) continue;
    if (!stat.isFile() || stat.size > MAX_ALTERNATES_BYTES)
      return `an alternates file that cannot be read (${file})`;
    const text = await fs.readFile(file, 'utf8').catch(() => null);
    if (text === null) return `an alternates file that cannot be read (${file})`;
    for (const line of text.split('\n')) {
      const entry = line.trim();
      if (entry === '' || entry.startsWith('#')) continue;
      // A relative entry is read from the objects folder that names it (gitrepository-layout(5)); a quoted one is
      // C-style escaped, which no plain path needs: it counts as outside.
      if (entry.startsWith('"')) return `a quoted alternate (${entry.slice(0, 80)})`;
      const target = path.resolve(objects, entry);
      const real = await fs.realpath(target).catch(() => target);
      if (!isInside(real, workspace)) return real;
      queue.push(real);
    }
  }
  return null;
}

type Answer = { ok: true; lines: string[] } | { ok: false; message: string } | null;

// git's answer (null: no git at all); a spawn that cannot even start is a refusal, never an exception.
function revParse(args: string[], cwd: string, env: Record<string, string>): Promise<Answer> {
  return new Promise((resolve) => {
    try {
      execFile(
        'git',
        args,
        { cwd, env, timeout: CHECK_TIMEOUT_MS, encoding: 'utf8' },
        (error, stdout, stderr) => {
          if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') return resolve(null);
          if (error)
            return resolve({ ok: false, message: (stderr || error.message).trim().split('\n')[0] ?? '' });
          resolve({ ok: true, lines: stdout.split('\n') });
        },
      );
    } catch (error) {
      resolve({ ok: false, message: error instanceof Error ? error.message : String(error) });
    }
  });
}
