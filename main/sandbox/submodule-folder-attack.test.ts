// A command planting a submodule's git folder that git reuses later, outside the sandbox (docs/security.md). A
// fresh clone lists a submodule in `.gitmodules` but has no `.git/modules/<name>` yet, so that folder was neither
// read-only nor looked at after the run: an approved command (`sh plant.sh`, standing for `npm test`) made one with a
// post-checkout hook, and the person's own `git submodule update --init` found it ("reactivating local git
// directory"), checked out into it and ran the hook, unconfined. Through `agenvoy tools call … --yes`, the real
// gate and the real sandbox (bubblewrap).
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
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-submodule-folder-attack-')));
  home = path.join(root, 'home');
  fs.mkdirSync(home);
  git(root, 'init', '-q', 'lib');
  git(path.join(root, 'lib'), 'commit', '-q', '--allow-empty', '-m', 'lib');
  git(root, 'init', '-q', 'upstream');
  git(path.join(root, 'upstream'), 'submodule', 'add', '-q', '../lib', 'lib');
  git(path.join(root, 'upstream'), 'commit', '-q', '-m', 'with a submodule');
  git(root, 'clone', '-q', 'upstream', 'workspace');
  workspace = path.join(root, 'workspace');
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: home } };
  fs.mkdirSync(place.home);
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const approved = (command: string) => approvedCommand(place, command);

// The planting command: a bare clone of the submodule's repository, made a work-tree repository, with a hook.
const PLANT = [
  'git clone -q --bare ../lib .git/modules/lib',
  'git config -f .git/modules/lib/config core.bare false',
  `printf '#!/bin/sh\\ntouch "$MARKER"\\n' > .git/modules/lib/hooks/post-checkout`,
  'chmod +x .git/modules/lib/hooks/post-checkout',
].join('\n');

async function plantThenUpdate(): Promise<string> {
  fs.writeFileSync(path.join(workspace, 'plant.sh'), `MARKER=${marker()}\n${PLANT}\n`);
  const outcome = await approved('sh plant.sh');
  expect(outcome.outcome).toBe('ok');
  // The person's own git, later, outside the sandbox: the submodule is still set up as usual.
  git(workspace, 'submodule', 'update', '--init');
  expect(fs.existsSync(marker())).toBe(false);
  expect(git(workspace, 'submodule', 'status')).toMatch(/^ [0-9a-f]{40} lib/);
  return outcome.text;
}

it('a fresh clone’s missing .git/modules cannot be made by a command', async () => {
  const text = await plantThenUpdate();
  expect(text).toContain("could not create leading directories of '.git/modules/lib'");
}, 120_000);

it('a new submodule folder beside existing ones is removed after the run, and said so', async () => {
  fs.mkdirSync(path.join(workspace, '.git', 'modules', 'other'), { recursive: true });
  const text = await plantThenUpdate();
  expect(text).toContain(`removed ${path.join(workspace, '.git', 'modules', 'lib')}`);
}, 120_000);
