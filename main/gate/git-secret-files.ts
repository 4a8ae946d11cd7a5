// Secret files in a repository's objects (docs/security.md): `.env`, `.env.*` and `.envrc` are sensitive targets and
// hidden from sandboxed commands, but a repository that ever committed one keeps it in its history, where `git show`,
// `git diff` and `git log -p` print it. Under a default rule those ask when the repository holds one.
import { gitCeiling, gitProtectionEnv } from '../../tools/sdk/git-protection';
import { childEnvironment } from '../core/child-env';
import { runGitCheck } from './git-check-run';

// The names the sandbox hides at any depth (main/sandbox/workspace-protection.ts), as git pathspecs.
const PATHSPECS = [':(glob,icase)**/.env', ':(glob,icase)**/.env.*', ':(glob,icase)**/.envrc'];

// Commits no branch holds that git still prints by name: a `.env` committed by mistake and reset or amended away
// stays in the reflog (`git log -g -p`, `git show 'HEAD@{1}'`) and in ORIG_HEAD, so the history read for secret
// files takes in every reflog (`--reflog`) and these names, when they exist (`--ignore-missing`).
const PSEUDO_REFS = [
  'ORIG_HEAD',
  'FETCH_HEAD',
  'MERGE_HEAD',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
  'BISECT_HEAD',
];

// Options of `git log` that print the changes' contents (a patch, a word diff, a line log; `--binary` implies a
// patch, `--check` prints each line with trailing blanks), not just their names, or test them: the pickaxe (`-G`,
// `-S`) lists a commit only when a change matches, so one call per character spells a secret out.
const LOG_CONTENT =
  /^(?:-[pu]|-U\d*|--patch.*|--unified.*|--word-diff.*|--color-words.*|--cc|-c|-m|--diff-merges.*|-L.*|--full-diff|--binary|--check|-[GS].*|--pickaxe.*)$/s;

/** Whether a default-rule git argv can print file contents: `show`, `diff`, or `log` with a patch option. */
export function printsContents(argv: readonly string[]): boolean {
  const sub = argv[1];
  if (sub === 'show' || sub === 'diff') return true;
  if (sub !== 'log') return false;
  return argv.slice(2).some((word) => LOG_CONTENT.test(word) || /^-[a-zA-Z0-9]*[puLcmGS]/.test(word));
}

/**
 * Why git must not print contents in `cwd` unasked: the repository tracks, or once tracked, a secret file (named), or
 * its history could not be read in time. Null when it holds none.
 */
export async function secretFileInHistory(cwd: string): Promise<string | null> {
  const env = { ...childEnvironment(process.env), ...gitProtectionEnv(await gitCeiling(cwd)) };
  const listed = await gitNames(
    [
      'log',
      '--all',
      '--reflog',
      '--ignore-missing',
      ...PSEUDO_REFS,
      '--format=',
      '--name-only',
      '-z',
      '--',
      ...PATHSPECS,
    ],
    cwd,
    env,
  );
  const indexed = await gitNames(['ls-files', '-z', '--', ...PATHSPECS], cwd, env);
  const failed = [listed, indexed].find((answer): answer is { ok: false; message: string } => !answer.ok);
  if (failed)
    return `git could not tell in time whether the repository holds a .env file (${failed.message}), whose contents git would print; the default read-only rule does not cover it here`;
  const found = [indexed, listed].flatMap((answer) => (answer.ok ? answer.names : []))[0];
  return found === undefined
    ? null
    : `the repository holds a .env file in its index or history (${found}), and this git command can print its contents; the default read-only rule does not cover it here`;
}

type Names = { ok: true; names: string[] } | { ok: false; message: string };

async function gitNames(args: string[], cwd: string, env: Record<string, string>): Promise<Names> {
  const answer = await runGitCheck(args, cwd, env);
  switch (answer.kind) {
    case 'ok':
      return { ok: true, names: answer.stdout.split('\0').filter((name) => name !== '') };
    case 'no_git':
      return { ok: false, message: 'git was not found' };
    case 'failed':
      return { ok: false, message: answer.message };
  }
}
