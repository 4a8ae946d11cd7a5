// A committed file replaced in the work tree by a hard link to a secret (~/.ssh/id_rsa under the name `notes.txt`):
// `git diff` runs unasked under its default read-only rule, and prints the work tree's text of every changed file;
// the sandbox hides ~/.ssh by path, not the same file under a workspace name. Played through `agenvoy tools call`
// with no terminal: whatever runs, ran unasked (docs/security.md, "Hard links"). `git status -vv` prints the same,
// and `git status -v` the staged diff, a staged .env included: both ran unasked too.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { runCli } from '../cli/testing/cli-harness';

const CANARY = 'HARD-LINK-KEY-CANARY-7c1d2';
const STAGED = 'DB_PASSWORD=STAGED-ENV-CANARY-41f0a';

let root: string;
let workspace: string;
let place: CliPlace;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-git-hardlink-')));
  workspace = path.join(root, 'repo');
  const home = path.join(root, 'home');
  fs.mkdirSync(path.join(workspace, 'src'), { recursive: true });
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), `-----BEGIN PRIVATE KEY-----\n${CANARY}\n`);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
  git('init', '-q');
  fs.writeFileSync(path.join(workspace, 'notes.txt'), 'notes\n');
  fs.writeFileSync(path.join(workspace, 'README.md'), '# app\n');
  fs.writeFileSync(path.join(workspace, 'src', 'main.ts'), 'export {};\n');
  git('add', '-A');
  git('-c', 'user.email=a@b', '-c', 'user.name=n', 'commit', '-qm', 'first');
  // A staged .env: `git status -v` prints the staged diff (the sandbox hides the file, not git's index).
  fs.writeFileSync(path.join(workspace, '.env'), `${STAGED}\n`);
  git('add', '.env');
  fs.rmSync(path.join(workspace, 'notes.txt'));
  fs.linkSync(path.join(home, '.ssh', 'id_rsa'), path.join(workspace, 'notes.txt'));
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: home } };
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const call = (command: string, cwd?: string) =>
  runCli(
    ['tools', 'call', 'run_command', JSON.stringify({ command, ...(cwd ? { cwd } : {}) }), '--json'],
    place,
  );

describe('a hard link to a secret in place of a committed file, under the default read-only rules', () => {
  it.each([
    ['git diff'],
    ['git diff HEAD'],
    ['git diff -- notes.txt'],
    ['git diff --stat -p'],
    ['git status -vv'],
    ['git status --verbose --verbose'],
  ])(
    '%s does not print it unasked',
    async (line) => {
      const run = await call(line);
      expect(run.stdout + run.stderr).not.toContain(CANARY);
      expect(JSON.parse(run.stdout).outcome).toBe('denied');
      // `git status -v` in any spelling is outside the default rule itself (it runs textconv drivers:
      // git-user-driver-attack.test.ts), so only git diff gets as far as the hard-link check.
      if (line.startsWith('git diff')) expect(run.stdout).toContain('more than one name');
    },
    60_000,
  );

  it.each([['git status -v'], ['git status -sv'], ['git status --verb']])(
    '%s does not print a staged .env unasked',
    async (line) => {
      const run = await call(line);
      expect(run.stdout + run.stderr).not.toContain('STAGED-ENV-CANARY');
      expect(JSON.parse(run.stdout).outcome).toBe('denied');
    },
    60_000,
  );

  it('git diff in a subfolder, which shows the whole work tree, does not print it unasked', async () => {
    const run = await call('git diff', 'src');
    expect(run.stdout + run.stderr).not.toContain(CANARY);
    expect(JSON.parse(run.stdout).outcome).toBe('denied');
    expect(run.stdout).toContain('more than one name');
  }, 60_000);

  it('git status and git log still run unasked', async () => {
    for (const line of ['git status', 'git log --oneline']) {
      const run = await call(line);
      expect(JSON.parse(run.stdout).outcome, line).toBe('ok');
    }
  }, 60_000);
});
