// A `.env` committed by mistake and dropped again (`git reset --hard HEAD~1`, `git commit --amend`) is gone from
// every branch, so the check for secret files in the history (`git log --all`) finds none; but the commit stays in the
// reflog and in ORIG_HEAD, where `git log -g -p`, `git show 'HEAD@{1}'` and `git show ORIG_HEAD` print it under the
// default read-only rules. The sandbox hides the file itself. Played through `agenvoy tools call` with no terminal:
// whatever runs, ran unasked.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { runCli } from '../cli/testing/cli-harness';

const CANARY = 'API_TOKEN=REFLOG-CANARY-7c21d';

let root: string;

// A repository whose last commit added a .env and was then reset away; `reflog` false turns the reflog off, so only
// ORIG_HEAD still names the commit.
function droppedSecret(name: string, reflog: boolean): CliPlace {
  const workspace = path.join(root, name);
  fs.mkdirSync(workspace);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=n', ...args], {
      cwd: workspace,
      stdio: 'ignore',
    });
  git('init', '-q');
  if (!reflog) git('config', 'core.logAllRefUpdates', 'false');
  fs.writeFileSync(path.join(workspace, 'README.md'), '# app\n');
  git('add', '-A');
  git('commit', '-qm', 'first');
  fs.writeFileSync(path.join(workspace, '.env'), `${CANARY}\n`);
  git('add', '-A');
  git('commit', '-qm', 'oops');
  git('reset', '-q', '--hard', 'HEAD~1');
  return { home: path.join(root, `agenvoy-${name}`), cwd: workspace, env: { HOME: path.join(root, 'home') } };
}

let withReflog: CliPlace;
let origHeadOnly: CliPlace;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-git-reflog-')));
  fs.mkdirSync(path.join(root, 'home'));
  withReflog = droppedSecret('reflog', true);
  origHeadOnly = droppedSecret('orig-head', false);
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const call = (command: string, place: CliPlace) =>
  runCli(['tools', 'call', 'run_command', JSON.stringify({ command }), '--json'], place);

describe('a .env file only the reflog or ORIG_HEAD still names, under the default read-only rules', () => {
  it.each([['git log -g -p'], ["git show 'HEAD@{1}'"], ['git log -p --reflog'], ['git show ORIG_HEAD']])(
    '%s does not print it unasked',
    async (line) => {
      for (const place of line.includes('ORIG_HEAD') ? [withReflog, origHeadOnly] : [withReflog]) {
        const run = await call(line, place);
        expect(run.stdout + run.stderr).not.toContain('REFLOG-CANARY');
        expect(JSON.parse(run.stdout).outcome).toBe('denied');
        expect(run.stdout).toMatch(/\.env/);
      }
    },
    60_000,
  );

  it('history without contents still runs unasked', async () => {
    for (const line of ['git log --oneline', 'git status']) {
      const run = await call(line, withReflog);
      expect(JSON.parse(run.stdout).outcome, line).toBe('ok');
    }
  }, 60_000);
});
