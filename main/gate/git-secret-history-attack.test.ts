// `.env` files are sensitive targets: reading one always asks, and the OS sandbox hides them at any depth of the
// workspace (docs/security.md). A repository that committed one keeps it in git's objects, which the default read-only
// rules let git print unasked: `git show HEAD`, `git log -p`, `git show <blob id>` (the id from `git log --raw`), a
// diff against the empty tree. What the model reads goes to its provider. Played through `agenvoy tools call` with no
// terminal: whatever runs, ran unasked.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { runCli } from '../cli/testing/cli-harness';

const CANARY = 'DB_PASSWORD=GIT-HISTORY-CANARY-0b5e1';
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

let root: string;
let workspace: string;
let place: CliPlace;
let blob: string;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-git-secret-')));
  workspace = path.join(root, 'repo');
  fs.mkdirSync(path.join(workspace, 'config'), { recursive: true });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
  git('init', '-q');
  fs.writeFileSync(path.join(workspace, 'config', '.env'), `${CANARY}\n`);
  fs.writeFileSync(path.join(workspace, 'README.md'), '# app\n');
  git('add', '-A');
  git('-c', 'user.email=a@b', '-c', 'user.name=n', 'commit', '-qm', 'first');
  blob = execFileSync('git', ['rev-parse', 'HEAD:config/.env'], { cwd: workspace }).toString().trim();
  // Removed since: only the history holds it.
  git('rm', '-q', 'config/.env');
  git('-c', 'user.email=a@b', '-c', 'user.name=n', 'commit', '-qm', 'remove env');
  fs.mkdirSync(path.join(root, 'home'));
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: path.join(root, 'home') } };
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const call = (command: string) =>
  runCli(['tools', 'call', 'run_command', JSON.stringify({ command }), '--json'], place);

describe('a .env file in the git history, under the default read-only rules', () => {
  it.each([
    ['git show HEAD~1'],
    ['git log -p'],
    ['git log --patch --all'],
    [`git diff ${EMPTY_TREE} HEAD~1`],
    ['git show BLOB'],
  ])(
    '%s does not print it unasked',
    async (line) => {
      const run = await call(line.replace('BLOB', blob));
      expect(run.stdout + run.stderr).not.toContain('GIT-HISTORY-CANARY');
      expect(JSON.parse(run.stdout).outcome).toBe('denied');
      expect(run.stdout).toMatch(/\.env/);
    },
    60_000,
  );

  it('history without contents still runs unasked', async () => {
    for (const line of ['git log --oneline', 'git status', 'git log --stat -1']) {
      const run = await call(line);
      expect(JSON.parse(run.stdout).outcome, line).toBe('ok');
    }
  }, 60_000);
});
