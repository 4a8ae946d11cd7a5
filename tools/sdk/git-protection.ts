// The second layer for git under a default read-only rule (docs/security.md): the gate has checked the effective
// config of the repository git will find; git then runs with settings that stop it from starting programs
// (fsmonitor, pager, hooks, external diff, textconv, signature checks, transports) and from finding any other
// repository than the one that was checked.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readCommandLine } from './shell/parse';
import { quoteArgv } from './shell/quote';
import { ToolError } from './types';

// A program path nothing can create: `/dev/null` is not a folder.
const NO_PROGRAM = '/dev/null/agenvoy-no-program';

// Overrides given as GIT_CONFIG_COUNT/KEY/VALUE: the command-line scope, above every config file.
const CONFIG_OVERRIDES: ReadonlyArray<[string, string]> = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['pager.status', 'false'],
  ['pager.log', 'false'],
  ['pager.diff', 'false'],
  ['pager.show', 'false'],
  ['pager.branch', 'false'],
  ['safe.bareRepository', 'explicit'],
  ['log.showSignature', 'false'],
  // A `%G?` placeholder verifies signatures whatever log.showSignature says: every signature program is a path
  // that cannot run (`/dev/null` is no folder), so git reports no signature and starts nothing.
  ['gpg.program', NO_PROGRAM],
  ['gpg.openpgp.program', NO_PROGRAM],
  ['gpg.x509.program', NO_PROGRAM],
  ['gpg.ssh.program', NO_PROGRAM],
  // Inline submodule diffs (`diff.submodule=diff` in any config) run `git diff` in each submodule as a child
  // that git starts without --no-ext-diff --no-textconv, so textconv and diff.external would run there.
  ['diff.submodule', 'short'],
  // `-m` re-doing merges (log.diffMerges=remerge) would run merge drivers: git's default instead.
  ['log.diffMerges', 'separate'],
  ['credential.helper', ''],
  ['protocol.allow', 'never'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
];

// Subcommands whose diff output may run an external diff or a textconv filter.
const DIFFING = new Set(['diff', 'log', 'show']);

/** A command line rebuilt for a default rule, with the environment it runs with. */
export interface ProtectedGit {
  command: string;
  env: Record<string, string>;
}

/**
 * The nearest folder from `cwd` upwards that holds a `.git` entry (where git finds its repository), or null.
 * Symlinks are already resolved in `cwd` (the command runner passes its realpath).
 */
export async function repositoryRoot(cwd: string): Promise<string | null> {
  let dir = path.resolve(cwd);
  for (;;) {
    const found = await fs.lstat(path.join(dir, '.git')).then(
      () => true,
      () => false,
    );
    if (found) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** GIT_CEILING_DIRECTORIES for a command in `cwd`: git may find the repository that was checked and none above. */
export async function gitCeiling(cwd: string): Promise<string> {
  const root = await repositoryRoot(cwd);
  return path.dirname(root ?? path.resolve(cwd));
}

/** The environment git runs with under a default rule; `extra` overrides follow the fixed ones. */
export function gitProtectionEnv(
  ceiling: string,
  extra: ReadonlyArray<[string, string]> = [],
): Record<string, string> {
  const overrides = [...CONFIG_OVERRIDES, ...extra];
  const env: Record<string, string> = {
    GIT_CEILING_DIRECTORIES: ceiling,
    GIT_CONFIG_COUNT: String(overrides.length),
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_LAZY_FETCH: '1',
  };
  overrides.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

/** `git diff|log|show …` with `--no-ext-diff --no-textconv` right after the subcommand; other argv unchanged. */
export function protectGitArgv(argv: readonly string[]): string[] {
  if (argv[0] !== 'git' || !DIFFING.has(argv[1] ?? '')) return [...argv];
  return [argv[0], argv[1] as string, '--no-ext-diff', '--no-textconv', ...argv.slice(2)];
}

/**
 * How a command a default rule allowed runs: exactly the argv the gate approved, re-quoted (quoteArgv), so no
 * difference between how the gate and the shell read the line can matter; git with the protections above. Null
 * when the line no longer reads as one known command (the gate allowed only such lines): the caller refuses it.
 */
export async function protectDefaultRuleCommand(line: string, cwd: string): Promise<ProtectedGit | null> {
  const reading = readCommandLine(line, { home: os.homedir() });
  if (!reading.argv) return null;
  if (reading.argv[0] !== 'git') return { command: quoteArgv(reading.argv), env: {} };
  return { command: quoteArgv(protectGitArgv(reading.argv)), env: await defaultRuleGitEnv(cwd) };
}

/**
 * The environment of git under a default rule in `cwd`, the user's filter drivers emptied (below): also what the
 * gate's own checks that make git look at the work tree run with. Throws a ToolError when the drivers cannot be listed.
 */
export async function defaultRuleGitEnv(cwd: string): Promise<Record<string, string>> {
  const ceiling = await gitCeiling(cwd);
  return gitProtectionEnv(ceiling, await filterOverrides(cwd, ceiling));
}

// Filter drivers: `.gitattributes` (or `.git/info/attributes`) of the repository picks which one runs on its files,
// and `git status` and `git diff` run its clean command on changed files. The repository's own config may not name
// one (the gate asks then), but the user's may (git-lfs, git-crypt, a formatter): a hostile repository would feed its
// files to that program under a rule that promised git alone. Every driver the config knows is emptied, so git reads
// the files as they are (a file whose clean form differs may then show as changed).
const FILTER_KEY = /^filter\.(.+)\.(?:clean|smudge|process|required)$/is;
const MAX_FILTERS = 64;

async function filterOverrides(cwd: string, ceiling: string): Promise<Array<[string, string]>> {
  // The config the command's git will read: HOME and PATH as it gets them, no XDG_CONFIG_HOME or GIT_CONFIG_*.
  const env: Record<string, string> = { GIT_CEILING_DIRECTORIES: ceiling };
  for (const name of ['PATH', 'HOME'] as const)
    if (process.env[name]) env[name] = process.env[name] as string;
  const args = [
    '-c',
    'safe.bareRepository=explicit',
    'config',
    '-z',
    '--name-only',
    '--get-regexp',
    '^filter\\.',
  ];
  const listed = await new Promise<string>((resolve, reject) => {
    execFile('git', args, { cwd, env, timeout: 5000, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
      // Exit code 1: no such key. Git missing: the command itself will not run git's filters either.
      const code = (error as { code?: unknown } | null)?.code;
      if (!error || code === 1 || code === 'ENOENT') resolve(error ? '' : stdout);
      else reject(new ToolError('start_failed', filterFailure(stderr || error.message)));
    });
  });
  const names = new Set(listed.split('\0').flatMap((key) => FILTER_KEY.exec(key)?.slice(1, 2) ?? []));
  if (names.size > MAX_FILTERS)
    throw new ToolError('start_failed', filterFailure(`${names.size} filter drivers`));
  return [...names].flatMap((name): Array<[string, string]> => [
    [`filter.${name}.clean`, ''],
    [`filter.${name}.smudge`, ''],
    [`filter.${name}.process`, ''],
    [`filter.${name}.required`, 'false'],
  ]);
}

function filterFailure(reason: string): string {
  const first = reason.trim().split('\n')[0] ?? '';
  return `git's filter drivers could not be switched off (${first}), so git does not run under the default read-only rule`;
}
