// A command rewriting the git folder of a submodule that is not directly under `.git/modules` (docs/security.md): a
// submodule whose name holds a slash (`vendor/lib`, git's default name for that path) lives in
// `.git/modules/vendor/lib`, and a submodule's own submodule in `.git/modules/vendor/lib/modules/inner`. Only the
// folders directly under `.git/modules` had their config and hooks kept read-only, so an approved command (`sh
// plant.sh`, standing for `npm test`) set `core.fsmonitor` in those configs, and the person's own `git status` in
// the workspace, which looks into every submodule, ran it unconfined. Through `agenvoy tools call … --yes`, the real
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
const marker = (name: string) => path.join(root, `PWNED-${name}`);

const git = (cwd: string, ...args: string[]) => personGit(home, cwd, ...args);

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-nested-submodule-attack-')));
  home = path.join(root, 'home');
  fs.mkdirSync(home);
  git(root, 'init', '-q', 'inner');
  fs.writeFileSync(path.join(root, 'inner', 'a.txt'), 'inner\n');
  git(path.join(root, 'inner'), 'add', 'a.txt');
  git(path.join(root, 'inner'), 'commit', '-q', '-m', 'inner');
  git(root, 'init', '-q', 'lib');
  git(path.join(root, 'lib'), 'submodule', 'add', '-q', '../inner', 'inner');
  git(path.join(root, 'lib'), 'commit', '-q', '-m', 'lib');
  git(root, 'init', '-q', 'upstream');
  git(path.join(root, 'upstream'), 'submodule', 'add', '-q', '../lib', 'vendor/lib');
  git(path.join(root, 'upstream'), 'commit', '-q', '-m', 'with a submodule');
  git(root, 'clone', '-q', '--recurse-submodules', 'upstream', 'workspace');
  workspace = path.join(root, 'workspace');
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: home } };
  fs.mkdirSync(place.home);
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const approved = (command: string) => approvedCommand(place, command);

it('the config and hooks of submodules at any depth of .git/modules stay read-only', async () => {
  const lib = path.join('.git', 'modules', 'vendor', 'lib');
  const inner = path.join(lib, 'modules', 'inner');
  expect(fs.existsSync(path.join(workspace, lib, 'HEAD'))).toBe(true);
  expect(fs.existsSync(path.join(workspace, inner, 'HEAD'))).toBe(true);
  const plant = (dir: string, name: string) => [
    `git config -f ${dir}/config core.fsmonitor 'touch ${marker(`${name}-fsmonitor`)}; false'`,
    `printf '#!/bin/sh\\ntouch ${marker(`${name}-hook`)}\\n' > ${dir}/hooks/post-checkout`,
    `chmod +x ${dir}/hooks/post-checkout`,
    `mkdir -p ${dir}/modules/planted && echo planted > ${dir}/modules/planted/HEAD`,
  ];
  fs.writeFileSync(
    path.join(workspace, 'plant.sh'),
    [...plant(lib, 'lib'), ...plant(inner, 'inner')].map((line) => `${line} 2>&1`).join('\n'),
  );
  const outcome = await approved('sh plant.sh');
  expect(outcome.outcome).toBe('ok');
  // The person's own git, later, outside the sandbox: status looks into every submodule, and a checkout runs hooks.
  git(workspace, 'status');
  git(workspace, 'submodule', 'update', '--init', '--recursive', '--force', '--checkout');
  for (const name of ['lib-fsmonitor', 'lib-hook', 'inner-fsmonitor', 'inner-hook'])
    expect(fs.existsSync(marker(name)), name).toBe(false);
  expect(fs.readFileSync(path.join(workspace, lib, 'config'), 'utf8')).not.toContain('fsmonitor');
  expect(fs.existsSync(path.join(workspace, lib, 'hooks', 'post-checkout'))).toBe(false);
  expect(fs.existsSync(path.join(workspace, inner, 'hooks', 'post-checkout'))).toBe(false);
  // A new submodule git folder planted inside a nested one is gone too.
  expect(fs.existsSync(path.join(workspace, inner, 'modules', 'planted'))).toBe(false);
  expect(fs.existsSync(path.join(workspace, lib, 'modules', 'planted'))).toBe(false);
  expect(outcome.text).toContain(`removed ${path.join(workspace, lib, 'modules', 'planted')}`);
}, 120_000);
