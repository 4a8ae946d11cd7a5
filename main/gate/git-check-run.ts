// How the gate's own git checks run git (git-config-check.ts, git-secret-files.ts): a time limit, a bounded output,
// and every failure an answer (git missing, a spawn that cannot start, a timeout), never a throw out of the gate.
import { execFile } from 'node:child_process';

/** How long one check may take; past it the check fails and the call asks. */
export const CHECK_TIMEOUT_MS = 5000;

/** The most output a check reads. */
const CHECK_MAX_BUFFER = 8 * 1024 * 1024;

/** What one git check printed, or why it gave no answer (`no_git`: git is not installed). */
export type GitAnswer =
  { kind: 'ok'; stdout: string } | { kind: 'no_git' } | { kind: 'failed'; message: string };

/** Runs `git ARGS` in `cwd` with `env` (and `input` on its stdin), within the check's limits. */
export function runGitCheck(
  args: string[],
  cwd: string,
  env: Record<string, string>,
  input = '',
): Promise<GitAnswer> {
  return new Promise((resolve) => {
    try {
      const child = execFile(
        'git',
        args,
        { cwd, env, timeout: CHECK_TIMEOUT_MS, maxBuffer: CHECK_MAX_BUFFER, encoding: 'utf8' },
        (error, stdout, stderr) => {
          if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') return resolve({ kind: 'no_git' });
          if (error)
            return resolve({
              kind: 'failed',
              message: (stderr || error.message).trim().split('\n')[0] ?? '',
            });
          resolve({ kind: 'ok', stdout });
        },
      );
      // A child that exits before reading it all must not fail the gate with EPIPE: the callback answers.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(input);
    } catch (error) {
      // A spawn that cannot even start (an argument past the system's limit, E2BIG) fails the check, not the gate.
      resolve({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  });
}
