// The second layer for git under a default read-only rule (docs/security.md): the gate has checked the effective
// config of the repository git will find; git then runs with settings that stop it from starting programs
// (fsmonitor, pager, hooks, external diff, textconv, signature checks, transports) and from finding any other
// repository than the one that was checked.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readCommandLine } from './shell/parse';
import { quoteArgv } from './shell/quote';

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

/** The environment git runs with under a default rule. */
export function gitProtectionEnv(ceiling: string): Record<string, string> {
  const env: Record<string, string> = {
    GIT_CEILING_DIRECTORIES: ceiling,
    GIT_CONFIG_COUNT: String(CONFIG_OVERRIDES.length),
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_LAZY_FETCH: '1',
  };
  CONFIG_OVERRIDES.forEach(([key, value], i) => {
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
  return { command: quoteArgv(protectGitArgv(reading.argv)), env: gitProtectionEnv(await gitCeiling(cwd)) };
}
