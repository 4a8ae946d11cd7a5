// A submodule's own submodules (docs/security.md): their git folders lie at `.git/modules/a/modules/b`, and a
// submodule named with a slash at `.git/modules/vendor/b`. Only `.git/modules/<one name>` was looked at, so an
// approved command (standing for `npm test`) wrote an fsmonitor into the nested folder's config, which the person's
// own git ran, unconfined, at the next `git status` there. Through `agenvoy tools call … --yes`, the real gate and
// the real sandbox (bubblewrap).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { approvedCommand, personGit } from './testing/person-git';

let root: string;
let place: CliPlace;
let workspace: string;
let home: string;
const marker = () => path.join(root, 'PWNED');

const git = (cwd: string, ...args: string[]) => personGit(home, cwd, ...args);

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-nested-submodule-attack-')));
  home = path.join(root, 'home');
  fs.mkdirSync(home);
  git(root, 'init', '-q', 'inner');
  git(path.join(root, 'inner'), 'commit', '-q', '--allow-empty', '-m', 'inner');
  git(root, 'init', '-q', 'outer');
  git(path.join(root, 'outer'), 'submodule', 'add', '-q', '../inner', 'b');
  git(path.join(root, 'outer'), 'commit', '-q', '-m', 'outer');
  git(root, 'init', '-q', 'upstream');
  git(path.join(root, 'upstream'), 'submodule', 'add', '-q', '../outer', 'a');
  git(path.join(root, 'upstream'), 'submodule', 'add', '-q', '--name', 'vendor/c', '../inner', 'c');
  git(path.join(root, 'upstream'), 'commit', '-q', '-m', 'with submodules');
  git(root, 'clone', '-q', '--recurse-submodules', 'upstream', 'workspace');
  workspace = path.join(root, 'workspace');
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: home } };
  fs.mkdirSync(place.home);
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const approved = (command: string) => approvedCommand(place, command);

const FSMONITOR = () => `printf '[core]\\n\\tfsmonitor = touch ${marker()}\\n' >>`;

it.each([
  ['a submodule’s submodule', '.git/modules/a/modules/b', 'a/b'],
  ['a submodule named with a slash', '.git/modules/vendor/c', 'c'],
])(
  '%s keeps its git config read-only',
  async (_, gitDir, workTree) => {
    fs.writeFileSync(path.join(workspace, 'plant.sh'), `${FSMONITOR()} ${gitDir}/config\n`);
    const outcome = await approved('sh plant.sh');
    expect(outcome.outcome).toBe('ok');
    // The person's own git, later, outside the sandbox.
    git(path.join(workspace, workTree), 'status', '--short');
    expect(fs.existsSync(marker())).toBe(false);
    expect(fs.readFileSync(path.join(workspace, gitDir, 'config'), 'utf8')).not.toContain('fsmonitor');
  },
  120_000,
);

it('a submodule’s missing modules folder cannot be planted for a later recursive update', async () => {
  // A clone whose submodule `a` is initialised but not `a`'s own submodule `b`: `.git/modules/a/modules` is missing.
  fs.rmSync(workspace, { recursive: true, force: true });
  git(root, 'clone', '-q', 'upstream', 'workspace');
  git(workspace, 'submodule', 'update', '-q', '--init', 'a');
  const plant = [
    'git clone -q --bare ../inner .git/modules/a/modules/b',
    'git config -f .git/modules/a/modules/b/config core.bare false',
    `printf '#!/bin/sh\\ntouch ${marker()}\\n' > .git/modules/a/modules/b/hooks/post-checkout`,
    'chmod +x .git/modules/a/modules/b/hooks/post-checkout',
  ].join('\n');
  fs.writeFileSync(path.join(workspace, 'plant.sh'), `${plant}\n`);
  const outcome = await approved('sh plant.sh');
  expect(outcome.outcome).toBe('ok');
  // The person's own git, later, outside the sandbox.
  git(workspace, 'submodule', 'update', '--init', '--recursive');
  expect(fs.existsSync(marker())).toBe(false);
}, 120_000);
