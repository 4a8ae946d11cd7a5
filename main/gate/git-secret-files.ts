// Secret files in a repository's objects (docs/security.md): `.env` files, private keys and the other sensitive names
// ask when a command names them, and the sandbox hides some, but a repository that ever committed one keeps it in its
// history, where `git show`, `git diff` and `git log -p` print it unnamed. Under a default rule those ask when the
// repository holds one.
import fs from 'node:fs/promises';
import path from 'node:path';
import { defaultRuleGitEnv, gitCeiling, gitProtectionEnv } from '../../tools/sdk/git-protection';
import { SENSITIVE_NAMES, sensitiveNameIn } from '../../tools/sdk/sensitive-names';
import { childEnvironment } from '../core/child-env';
import { runGitCheck } from './git-check-run';

// Every sensitive name (tools/sdk/sensitive-names.ts) at any depth, as a file and as a folder, as git pathspecs. `top`:
// git reads a pathspec from the folder it runs in, so without it a check run in `sub/` looked only under `sub/`, while
// `git log -p` there prints the whole repository's history.
export const SECRET_PATHSPECS: readonly string[] = SENSITIVE_NAMES.flatMap((name) =>
  name.segments
    .reduce<string[]>(
      (paths, segment) =>
        paths.flatMap((start) => (segment.globs ?? [segment.sample]).map((glob) => `${start}/${glob}`)),
      ['**'],
    )
    .flatMap((path) => [`:(top,glob,icase)${path}`, `:(top,glob,icase)${path}/**`]),
);

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
  /^(?:-[pu]|-U\d*|--patch.*|--unified.*|--word-diff.*|--color-words.*|--cc|--dd|-c|-m|--diff-merges.*|-L.*|--full-diff|--binary|--check|-[GS].*|--pickaxe.*)$/s;

const STATUS_VERBOSE = /^(?:-[a-zA-Z]*v.*|--v(?:e(?:r(?:b(?:o(?:s(?:e)?)?)?)?)?)?(?:=.*)?)$/s;

/** Whether a default-rule git argv can print file contents: `show`, `diff`, `log` with a patch option, `status -v`. */
export function printsContents(argv: readonly string[]): boolean {
  const sub = argv[1];
  if (sub === 'show' || sub === 'diff') return true;
  // `git status -v` prints the staged diff, `-vv` the work tree's too (`-sv`, `--verb` and the like included).
  if (sub === 'status') return argv.slice(2).some((word) => STATUS_VERBOSE.test(word));
  if (sub !== 'log') return false;
  return argv.slice(2).some((word) => LOG_CONTENT.test(word) || /^-[a-zA-Z0-9]*[puLcmGS]/.test(word));
}

// Object ids in the words of a command (`55df3c7`, `55df3c7:config/.env`, `HEAD..55df3c7`): what git keeps in
// .git/objects that no commit, index entry or reflog names (a .env staged by mistake and unstaged again, a commit
// reset away whose reflog expired) is still printed by id, and `ls -R .git/objects` lists the ids.
const OBJECT_ID = /(?<![0-9A-Za-z_])[0-9a-fA-F]{4,64}(?![0-9A-Za-z_])/g;
const MAX_OBJECT_IDS = 32;

/**
 * Why git must not print contents in `cwd` unasked: the repository tracks, or once tracked, a secret file (named);
 * `argv` names a blob or tree by id, whose file git cannot tell; or its history could not be read in time. Null
 * when it holds none.
 */
export async function secretFileInHistory(cwd: string, argv: readonly string[] = []): Promise<string | null> {
  const env = { ...childEnvironment(process.env), ...gitProtectionEnv(await gitCeiling(cwd)) };
  const named = await namedCommits(objectIds(argv), cwd, env);
  if (typeof named === 'string') return named;
  const listed = await gitNames(
    [
      'log',
      '--all',
      '--reflog',
      '--ignore-missing',
      ...PSEUDO_REFS,
      ...named,
      '--format=',
      '--name-only',
      '-z',
      '--',
      ...SECRET_PATHSPECS,
    ],
    cwd,
    env,
  );
  const indexed = await gitNames(['ls-files', '-z', '--', ...SECRET_PATHSPECS], cwd, env);
  const failed = [listed, indexed].find((answer): answer is { ok: false; message: string } => !answer.ok);
  if (failed)
    return `git could not tell in time whether the repository holds a secret file such as a .env file or a private key (${failed.message}), whose contents git would print; the default read-only rule does not cover it here`;
  const found = [indexed, listed].flatMap((answer) => (answer.ok ? answer.names : []))[0];
  return found === undefined
    ? null
    : `the repository holds ${sensitiveNameIn(found.split('/')) ?? 'a secret file'} in its index or history (${found}), and this git command can print its contents; the default read-only rule does not cover it here`;
}

// Most changed files looked at for hard links; past it the call asks.
const MAX_CHANGED = 2000;

/**
 * Why `git diff` must not print the work tree unasked: a tracked file that differs from the index there has more
 * than one name (a hard link), so it may be ~/.ssh/id_rsa under the name of a committed file, and the sandbox, which
 * hides by path, shows it (docs/security.md, "Hard links"). An unchanged file prints only what the index holds
 * already. Null when there is none.
 */
export async function hardLinkInWorkTree(cwd: string): Promise<string | null> {
  const rule = 'the default read-only rule does not cover it here';
  // Looking for changed files runs the user's clean filters on them, as git status does: emptied here too.
  let protection: Record<string, string>;
  try {
    protection = await defaultRuleGitEnv(cwd);
  } catch (error) {
    return `${(error as Error).message}; ${rule}`;
  }
  const env = { ...childEnvironment(process.env), ...protection };
  // The whole work tree (`:/`), as `git diff` shows it from a subfolder too; names come relative to `cwd`.
  const changed = await gitNames(['ls-files', '--modified', '-z', '--', ':/'], cwd, env);
  if (!changed.ok)
    return `git could not tell in time which files changed (${changed.message}), whose contents git diff would print; ${rule}`;
  if (changed.names.length > MAX_CHANGED)
    return `more than ${MAX_CHANGED} files changed, too many to check for hard links before git diff prints them; ${rule}`;
  for (const name of changed.names) {
    const stat = await fs.lstat(path.resolve(cwd, name)).catch(() => null);
    if (stat?.isFile() && stat.nlink > 1)
      return `${name} is a file with more than one name (a hard link: it may be a secret file under another name), and git diff would print its contents; ${rule}`;
  }
  return null;
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

function objectIds(argv: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const word of argv.slice(2)) {
    if (word === '--') break;
    if (!word.startsWith('-')) for (const id of word.match(OBJECT_ID) ?? []) ids.add(id);
  }
  return [...ids];
}

// The commits and tags among `ids` (their history joins the check), or why the command must ask: an id names a blob
// or a tree (which file it was, git cannot say), more than one object, or could not be looked up.
async function namedCommits(
  ids: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<string[] | string> {
  if (ids.length === 0) return [];
  const why = (what: string) =>
    `${what}, which may hold a secret file (a .env file, a private key) git still keeps in its objects, and this git command can print it; the default read-only rule does not cover it here`;
  if (ids.length > MAX_OBJECT_IDS) return why(`it names ${ids.length} objects by id`);
  const answer = await runGitCheck(
    ['cat-file', '--batch-check=%(objecttype) %(objectname)'],
    cwd,
    env,
    ids.map((id) => `${id}\n`).join(''),
  );
  if (answer.kind !== 'ok')
    return why(
      `git could not look up the objects it names by id (${answer.kind === 'failed' ? answer.message : 'no git'})`,
    );
  const commits: string[] = [];
  for (const [i, line] of answer.stdout.split('\n').slice(0, ids.length).entries()) {
    const [type, name] = line.split(' ');
    if (name === 'missing') continue;
    if (type === 'commit' || type === 'tag') commits.push(name as string);
    else
      return why(
        `its word \`${ids[i]}\` names ${name === 'ambiguous' ? 'more than one object' : `a ${type}`} by id`,
      );
  }
  return commits;
}
