// The confirm gate's two review findings as a scripted model meets them through `agenvoy chat --approve ask` with no
// terminal, in the real OS sandbox: git diff under the default rule reading files outside the workspace (an implicit
// --no-index), and command lines long or deep enough to crash or freeze the gate. Each call is denied with its
// reason, nothing from outside reaches the model, and the chat ends normally.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { chatWithCalls } from '../cli/testing/cli-harness';

let root: string;
let place: CliPlace;
let fakeHome: string;
let workspace: string;
let srv: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-chat-gate-')));
  fakeHome = path.join(root, 'home');
  workspace = path.join(root, 'workspace');
  srv = path.join(root, 'srv');
  fs.mkdirSync(path.join(fakeHome, '.config', 'tool'), { recursive: true });
  fs.writeFileSync(path.join(fakeHome, '.config', 'tool', 'settings'), 'CONFIG-CANARY\n');
  fs.writeFileSync(path.join(fakeHome, '.bash_history'), 'HISTORY-CANARY\n');
  fs.mkdirSync(path.join(srv, 'app'), { recursive: true });
  fs.writeFileSync(path.join(srv, 'app', 'db.conf'), 'SRV-CANARY\n');
  fs.mkdirSync(path.join(workspace, 'api'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'api', '.env'), 'NESTED-ENV-CANARY\n');
  fs.writeFileSync(path.join(workspace, 'README.md'), 'hello\n');
  const home = path.join(root, 'agenvoy');
  fs.mkdirSync(home);
  place = { home, cwd: workspace, env: { HOME: fakeHome } };
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const CANARIES = /CONFIG-CANARY|HISTORY-CANARY|SRV-CANARY|NESTED-ENV-CANARY/;

function gitInit(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', 'README.md');
  git('-c', 'user.email=dev@example.com', '-c', 'user.name=Dev', 'commit', '-qm', 'first');
}

describe('git diff under the default rule, from a scripted model', () => {
  it('reads nothing outside the workspace, with or without a repository', async () => {
    // The shell in the sandbox expands `~` to the real home of the process: the canaries are named absolutely.
    const calls = [
      `git diff ${srv} ${fakeHome}/.config`,
      `git diff /dev/null ${fakeHome}/.bash_history`,
      `git diff ${srv} api`,
      'git diff /dev/null ~/.bash_history',
    ].map((command) => ({ name: 'run_command', args: { command } }));
    for (const repository of [false, true]) {
      if (repository) gitInit(workspace);
      const chat = await chatWithCalls(calls, place, 'ask');
      expect(chat.code, chat.stderr).toBe(0);
      for (const [i] of calls.entries()) {
        const result = chat.toolResults[`call_${i}`] ?? '';
        expect(result, `${repository} ${i}`).toMatch(/denied: run_command needs approval/);
        expect(result).toMatch(/outside the workspace|no repository/);
        expect(result).not.toMatch(CANARIES);
      }
    }
  }, 60_000);
});

describe('long and deep command lines, from a scripted model', () => {
  it('are denied with their reason, quickly, and the chat goes on', async () => {
    const lines = [
      `ls ${'{}'.repeat(200_000)}`,
      `ls ${'a/'.repeat(32 * 1024)}`,
      `ls ${'$('.repeat(100_000)}`,
      `ls ${'${x:-'.repeat(50_000)}`,
    ];
    const started = Date.now();
    const chat = await chatWithCalls(
      lines.map((command) => ({ name: 'run_command', args: { command } })),
      place,
      'ask',
    );
    expect(chat.code, chat.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    for (const [i] of lines.entries()) {
      const result = chat.toolResults[`call_${i}`] ?? '';
      expect(result, String(i)).toMatch(/denied: run_command needs approval/);
      expect(result, String(i)).toMatch(/32 KiB|too deeply|too long/);
    }
  }, 60_000);
});
