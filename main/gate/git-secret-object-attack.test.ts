// A `.env` that git holds in no commit, index entry or reflog: `git add .env` then `git reset .env` leaves its blob
// in .git/objects, and a commit reset away with its reflog expired stays there too until git prunes it. `ls -R
// .git/objects` (the default ls rule) lists their ids, and `git show <id>` prints them under the default git rules;
// the sandbox hides only the file. Played through `agenvoy tools call` with no terminal: whatever runs, ran unasked.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { runCli } from '../cli/testing/cli-harness';

let root: string;
let place: CliPlace;
let blob: string;
let commit: string;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-git-object-')));
  const workspace = path.join(root, 'repo');
  fs.mkdirSync(workspace);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=n', ...args], {
      cwd: workspace,
      encoding: 'utf8',
    }).trim();
  git('init', '-q');
  fs.writeFileSync(path.join(workspace, 'README.md'), '# app\n');
  git('add', '-A');
  git('commit', '-qm', 'first');
  // A commit with a .env, reset away; its reflog entries expired and ORIG_HEAD gone: only its id names it.
  fs.writeFileSync(path.join(workspace, '.env'), 'API_TOKEN=COMMIT-OBJECT-CANARY\n');
  git('add', '-A');
  git('commit', '-qm', 'oops');
  commit = git('rev-parse', 'HEAD');
  git('reset', '-q', '--hard', 'HEAD~1');
  git('reflog', 'expire', '--expire=now', '--all');
  fs.rmSync(path.join(workspace, '.git', 'ORIG_HEAD'));
  // A .env staged by mistake and unstaged again.
  fs.writeFileSync(path.join(workspace, '.env'), 'API_TOKEN=BLOB-OBJECT-CANARY\n');
  git('add', '.env');
  git('reset', '-q', '.env');
  blob = git('hash-object', '.env');
  fs.mkdirSync(path.join(root, 'home'));
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: path.join(root, 'home') } };
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const call = (command: string) =>
  runCli(['tools', 'call', 'run_command', JSON.stringify({ command }), '--json'], place);

describe('a .env in objects nothing names, under the default read-only rules', () => {
  it('its ids are listed unasked', async () => {
    const run = await call('ls -R .git/objects');
    expect(JSON.parse(run.stdout).outcome).toBe('ok');
    expect(run.stdout).toContain(blob.slice(2));
  }, 60_000);

  it.each([
    ['git show BLOB'],
    ['git show SHORT'],
    ['git show COMMIT'],
    ['git diff COMMIT~1 COMMIT'],
    ['git log -p COMMIT'],
  ])(
    '%s does not print it unasked',
    async (line) => {
      const run = await call(
        line
          .replace('BLOB', blob)
          .replace('SHORT', blob.slice(0, 7))
          .replace(/COMMIT/g, commit),
      );
      expect(run.stdout + run.stderr).not.toMatch(/OBJECT-CANARY/);
      expect(JSON.parse(run.stdout).outcome).toBe('denied');
    },
    60_000,
  );

  it('commits and paths of the history still print unasked', async () => {
    for (const line of ['git show HEAD', 'git show HEAD:README.md', 'git log -p -1', 'git diff HEAD']) {
      const run = await call(line);
      expect(JSON.parse(run.stdout).outcome, line).toBe('ok');
    }
  }, 60_000);
});
