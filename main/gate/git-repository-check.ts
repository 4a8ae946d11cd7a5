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
  return found;
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
