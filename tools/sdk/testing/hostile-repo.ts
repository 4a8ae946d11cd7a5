// Real git repositories whose config names programs, for tests of the gate and of git's protections: every such
// program is one script that leaves a marker file named after its role, so a test sees exactly what ran.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** A hostile repository and where to look for what its programs did. */
export interface HostileRepo {
  /** The work tree (or the bare repository's folder). */
  root: string;
  /** The script every configured program runs: `<program> <role>` leaves `<marks>/<role>`. */
  program: string;
  marks: string;
  /** The roles whose program ran, sorted. */
  ran(): string[];
}

/** The environment git runs with in these helpers: no global or system config of the machine. */
export function quietGitEnv(base: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: base,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'T',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 'T',
    GIT_COMMITTER_EMAIL: 't@example.com',
  };
}

/** Runs git in `cwd` with the quiet environment of `base`. */
export function git(base: string, cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, env: quietGitEnv(base), encoding: 'utf8' });
}

/**
 * A repository at `root` with one commit and a changed, attributed file (`a.txt diff=evil filter=evil`), then
 * `config` written into its own config: a value's `$PROGRAM` is replaced by the marker script. The script and the
 * marks live in `base`, outside the repository.
 */
export function hostileRepo(
  base: string,
  root: string,
  config: Record<string, string>,
  options: { bare?: boolean } = {},
): HostileRepo {
  const marks = path.join(base, 'marks');
  const program = path.join(base, 'bin', 'program');
  fs.mkdirSync(marks, { recursive: true });
  fs.mkdirSync(path.dirname(program), { recursive: true });
  // Touches its marker; as a textconv or filter it also passes the content through.
  fs.writeFileSync(
    program,
    `#!/bin/sh\nrole="$1"; shift\ntouch "${marks}/$role"\ncase "$role" in textconv) cat "$1";; clean|smudge) cat;; esac\nexit 0\n`,
    { mode: 0o755 },
  );
  fs.mkdirSync(root, { recursive: true });
  if (options.bare) git(base, root, ['init', '-q', '--bare']);
  else {
    git(base, root, ['init', '-q']);
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
    fs.writeFileSync(path.join(root, '.gitattributes'), '*.txt diff=evil filter=evil\n');
    git(base, root, ['add', '.']);
    git(base, root, ['commit', '-q', '-m', 'one']);
    fs.writeFileSync(path.join(root, 'a.txt'), 'two\n');
  }
  for (const [key, value] of Object.entries(config))
    git(base, root, ['config', key, value.replace(/\$PROGRAM/g, program)]);
  return { root, program, marks, ran: () => fs.readdirSync(marks).sort() };
}
