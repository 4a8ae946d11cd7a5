// The headline of main/gate/git-user-driver-attack.test.ts through `agenvoy chat --approve ask` with no terminal
// and the real OS sandbox: the user has a filter driver in their own git config (as git-lfs and git-crypt install
// one), a cloned repository's `.gitattributes` selects it for every file, and the model asks for `git status` and
// `git diff`, which run the driver's clean command on each changed file. Nobody can answer here, so whatever runs
// ran without a question; the driver must not run, and git must still show the change.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from './testing/cli-harness';
import { chatRounds } from './testing/cli-harness';

let root: string;
let workspace: string;
let marker: string;
let place: CliPlace;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-userfilter-')));
  workspace = path.join(root, 'repo');
  fs.mkdirSync(workspace);
  // The user's filter program, outside the home folder (readable in the sandbox); it leaves a mark in the
  // workspace, which the sandbox lets a command write, and passes the content through.
  marker = path.join(workspace, 'filter-ran');
  const home = path.join(root, 'home');
  fs.mkdirSync(home);
  const driver = path.join(root, 'user-bin', 'git-crypt');
  fs.mkdirSync(path.dirname(driver));
  fs.writeFileSync(driver, `#!/bin/sh\necho "$@" >> '${marker}'\ncat\n`, { mode: 0o755 });
  fs.writeFileSync(
    path.join(home, '.gitconfig'),
    `[filter "git-crypt"]\n\tclean = ${driver} clean\n\tsmudge = ${driver} smudge\n\trequired = true\n`,
  );
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: root,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'T',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 'T',
    GIT_COMMITTER_EMAIL: 't@example.com',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, env, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(workspace, 'notes.txt'), 'one\n');
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  // The repository's attributes (the pull that brought them, say) select the user's driver; a file changed.
  fs.writeFileSync(path.join(workspace, '.gitattributes'), '* filter=git-crypt\n');
  fs.writeFileSync(path.join(workspace, 'notes.txt'), 'two\n');
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: home } };
  // In process, commands get the process's own HOME: the fake one, with the user's config above.
  process.env.HOME = home;
});

const savedHome = process.env.HOME;
afterEach(() => {
  process.env.HOME = savedHome;
  fs.rmSync(root, { recursive: true, force: true });
});

describe("agenvoy chat: git status and git diff with the user's filter driver", () => {
  it('run no filter program the repository selects', async () => {
    const run = await chatRounds(
      [
        [
          { name: 'run_command', args: { command: 'git status --short' } },
          { name: 'run_command', args: { command: 'git diff' } },
        ],
      ],
      place,
    );
    expect(run.code).toBe(0);
    expect(fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : 'not run').toBe('not run');
    expect(run.toolResults.call_0).toContain('notes.txt');
    expect(run.toolResults.call_1).toContain('+two');
  });
});
