// The headline of main/gate/git-child-program-attack.test.ts through `agenvoy chat --approve ask` with no terminal
// and the real OS sandbox: a cloned repository's `.gitattributes` names a merge driver the user has in their own
// git config, and the model asks for `git log --remerge-diff`, which re-does the repository's merge and runs that
// driver. Nobody can answer here, so whatever runs ran without a question; the driver must not run.
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
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-remerge-')));
  workspace = path.join(root, 'repo');
  fs.mkdirSync(workspace);
  // The user's merge driver, installed with cargo and named in their own config (both readable in the sandbox);
  // it leaves a mark in the workspace, which the sandbox lets a command write.
  marker = path.join(workspace, 'driver-ran');
  const home = path.join(root, 'home');
  const driver = path.join(home, '.cargo', 'bin', 'mergiraf');
  fs.mkdirSync(path.dirname(driver), { recursive: true });
  fs.writeFileSync(driver, `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(home, '.gitconfig'), `[merge "mine"]\n\tdriver = ${driver} %O %A %B\n`);
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
  const write = (text: string) => fs.writeFileSync(path.join(workspace, 'f'), text);
  git('init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(workspace, '.gitattributes'), 'f merge=mine\n');
  write('1\n2\n3\n');
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  git('checkout', '-q', '-b', 'side');
  write('1\nside\n3\n');
  git('commit', '-q', '-a', '-m', 'side');
  git('checkout', '-q', 'main');
  write('1\nmain\n3\n');
  git('commit', '-q', '-a', '-m', 'main');
  expect(() => git('merge', '-q', 'side')).toThrow();
  write('1\nmerged\n3\n');
  git('commit', '-q', '-a', '-m', 'merged');
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: home } };
  // In process, commands get the process's own HOME: the fake one, with the user's config above.
  process.env.HOME = home;
});

const savedHome = process.env.HOME;
afterEach(() => {
  process.env.HOME = savedHome;
  fs.rmSync(root, { recursive: true, force: true });
});

describe('agenvoy chat: git log --remerge-diff under the default rule', () => {
  it('does not re-do a merge through the user’s merge driver without asking', async () => {
    const run = await chatRounds(
      [
        [
          { name: 'run_command', args: { command: 'git log -1 --remerge-diff' } },
          { name: 'run_command', args: { command: 'git log -1 --format=%s' } },
        ],
      ],
      place,
    );
    expect(run.code).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
    expect(run.toolResults.call_0).toMatch(/needs approval/);
    // The plain log still runs under the default rule, in the sandbox.
    expect(run.toolResults.call_1).toContain('merged');
  });
});
