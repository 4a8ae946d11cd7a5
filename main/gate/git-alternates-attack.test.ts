// A repository that borrows objects from another one outside the workspace (objects/info/alternates, as
// `git clone --reference` or `--shared` leaves it; or planted by an approved command, since .git/objects is
// writable): `git log -p --alternate-refs`, under the default read-only rule for git, walked the other repository's
// commits, which the check for secret files in history never looked at, and printed its committed .env. The gate
// now refuses git under a default rule in such a repository (docs/security.md, "Operands stay inside"). Also
// `git log --dd` (newer git's `--diff-merges=first-parent -p`), which the patch check did not know. Through
// `agenvoy tools call` with nobody at the terminal.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/testing/cli-harness';

const CANARY = 'CANARY-alt-env-5150';
let root: string;
let home: string;
let userHome: string;
let ws: string;

const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.email=a@b', '-c', 'user.name=a', '-c', 'init.defaultBranch=main', ...args],
    {
      cwd,
      stdio: 'pipe',
    },
  );

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-alt-')));
  home = path.join(root, 'agenvoy');
  userHome = path.join(root, 'home');
  ws = path.join(root, 'ws');
  fs.mkdirSync(home);
  fs.mkdirSync(userHome);
  const other = path.join(root, 'other');
  fs.mkdirSync(other);
  git(other, 'init', '-q');
  fs.writeFileSync(path.join(other, '.env'), `DB_PASSWORD=${CANARY}\n`);
  git(other, 'add', '.env');
  git(other, 'commit', '-qm', 'add env');
  fs.mkdirSync(ws);
  git(ws, 'init', '-q');
  fs.writeFileSync(path.join(ws, 'a.txt'), 'hi\n');
  git(ws, 'add', '.');
  git(ws, 'commit', '-qm', 'init');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const run = (command: string) =>
  runCli(['tools', 'call', 'run_command', JSON.stringify({ command }), '--workspace', ws], {
    home,
    cwd: ws,
    env: { HOME: userHome },
  });

describe('a repository borrowing objects from outside the workspace', () => {
  it('git under a default rule asks (denied here), and nothing of the other repository is printed', async () => {
    fs.writeFileSync(
      path.join(ws, '.git', 'objects', 'info', 'alternates'),
      `${path.join(root, 'other', '.git', 'objects')}\n`,
    );
    for (const command of [
      'git log -p --alternate-refs',
      'git show --alternate-refs',
      'git log --alternate-refs --stat',
    ]) {
      const result = await run(command);
      expect(result.stdout + result.stderr, command).not.toContain(CANARY);
      expect(result.stdout + result.stderr, command).toMatch(/denied: .*borrows objects from/);
    }
  }, 120_000);

  it('a relative alternate, and one chained through an alternate inside the workspace, are followed', async () => {
    const inside = path.join(ws, 'vendor-objects');
    fs.mkdirSync(path.join(inside, 'info'), { recursive: true });
    fs.writeFileSync(path.join(inside, 'info', 'alternates'), '../../other/.git/objects\n');
    fs.writeFileSync(path.join(ws, '.git', 'objects', 'info', 'alternates'), '../../vendor-objects\n');
    const result = await run('git log -p --alternate-refs');
    expect(result.stdout + result.stderr).not.toContain(CANARY);
    expect(result.stdout + result.stderr).toMatch(/denied: .*borrows objects from/);
  }, 120_000);

  it('a git folder whose objects and refs are links out of the workspace asks too', async () => {
    fs.writeFileSync(path.join(root, 'other', 'notes.txt'), `PRIVATE ${CANARY}\n`);
    git(path.join(root, 'other'), 'add', 'notes.txt');
    git(path.join(root, 'other'), 'commit', '-qm', 'notes');
    for (const entry of ['objects', 'refs']) {
      fs.rmSync(path.join(ws, '.git', entry), { recursive: true, force: true });
      fs.symlinkSync(path.join(root, 'other', '.git', entry), path.join(ws, '.git', entry));
    }
    for (const command of ['git log -p', 'git log --stat', 'git show']) {
      const result = await run(command);
      expect(result.stdout + result.stderr, command).not.toContain(CANARY);
      expect(result.stdout + result.stderr, command).toMatch(/denied: .*leads outside the workspace/);
    }
  }, 120_000);

  it('an ordinary repository still runs git log under the default rule', async () => {
    const result = await run('git log --oneline');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('init');
  }, 120_000);

  it('`git log --dd` prints patches: in a repository that once held a .env it asks', async () => {
    fs.writeFileSync(path.join(ws, '.env'), `TOKEN=${CANARY}\n`);
    git(ws, 'add', '.env');
    git(ws, 'commit', '-qm', 'env');
    git(ws, 'rm', '-q', '.env');
    git(ws, 'commit', '-qm', 'remove env');
    const result = await run('git log --dd');
    expect(result.stdout + result.stderr).not.toContain(CANARY);
    expect(result.stdout + result.stderr).toMatch(/denied: /);
  }, 120_000);
});
