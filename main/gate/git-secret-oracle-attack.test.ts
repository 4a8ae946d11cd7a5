// A `.env` committed once stays in git's objects (git-secret-history-attack.test.ts); `git log` under a default
// rule asks when it would print contents. These options print them too, or answer a question about them: `--binary`
// (implies a patch), `--check` (prints each line with trailing blanks), and the pickaxe `-G`/`-S`, which lists a
// commit only when a change matches, so one call per character spells the secret out. Played through `agenvoy tools
// call` with no terminal and the real sandbox: whatever runs, ran unasked.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { runCli } from '../cli/testing/cli-harness';

const CANARY = 'API_TOKEN=ORACLE-CANARY-7c1d9';

let root: string;
let place: CliPlace;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-git-oracle-')));
  const workspace = path.join(root, 'repo');
  fs.mkdirSync(workspace);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
  git('init', '-q');
  // Pasted with a trailing blank, as happens.
  fs.writeFileSync(path.join(workspace, '.env'), `${CANARY} \n`);
  fs.writeFileSync(path.join(workspace, 'README.md'), '# app\n');
  git('add', '-A');
  git('-c', 'user.email=a@b', '-c', 'user.name=n', 'commit', '-qm', 'first');
  git('rm', '-q', '.env');
  git('-c', 'user.email=a@b', '-c', 'user.name=n', 'commit', '-qm', 'remove env');
  fs.mkdirSync(path.join(root, 'home'));
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: path.join(root, 'home') } };
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const call = async (command: string) => {
  const run = await runCli(['tools', 'call', 'run_command', JSON.stringify({ command }), '--json'], place);
  return { ...(JSON.parse(run.stdout) as { outcome: string }), text: run.stdout + run.stderr };
};

describe('git log options that print or test a .env in the history', () => {
  it.each([['git log --all --binary'], ['git log --all --check']])(
    '%s does not print it unasked',
    async (line) => {
      const run = await call(line);
      expect(run.text).not.toContain('ORACLE-CANARY');
      expect(run.outcome).toBe('denied');
    },
    60_000,
  );

  it('the pickaxe does not answer questions about it unasked', async () => {
    for (const line of [
      "git log --all --format=%s -G'API_T'",
      "git log --all --format=%s '-SCANARY-7'",
      'git log --all --format=%s -S CANARY-7',
      "git log --all --format=%s --pickaxe-regex -S'CANARY-[0-9]'",
    ]) {
      const run = await call(line);
      expect(run.text, line).not.toContain('first');
      expect(run.outcome, line).toBe('denied');
    }
  }, 60_000);

  it('history without contents still runs unasked', async () => {
    for (const line of [
      'git log --oneline --all',
      'git log --stat -1',
      'git log --all --format=%s --grep=first',
    ]) {
      expect((await call(line)).outcome, line).toBe('ok');
    }
  }, 60_000);
});
