// Everyday work still works in the sandbox, end to end through `agenvoy tools call` and `agenvoy chat` with no
// terminal: read-only commands run under the shipped default rules without asking, approved ones build, test and
// write in the workspace, and a write outside it is refused with words that say so.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliPlace } from '../cli/testing/cli-harness';
import { chatWithCalls, runCli } from '../cli/testing/cli-harness';

let root: string;
let place: CliPlace;
let workspace: string;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-everyday-')));
  workspace = path.join(root, 'project');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'README.md'), '# Project\n\nHello.\n');
  fs.writeFileSync(
    path.join(workspace, 'package.json'),
    JSON.stringify({ name: 'project', version: '1.0.0', scripts: { test: 'node test.js' } }),
  );
  fs.writeFileSync(path.join(workspace, 'test.js'), 'console.log("all 3 tests passed");\n');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('-c', 'user.email=dev@example.com', '-c', 'user.name=Dev', 'commit', '-qm', 'first');
  fs.writeFileSync(path.join(workspace, 'README.md'), '# Project\n\nHello, world.\n');
  const home = path.join(root, 'agenvoy');
  fs.mkdirSync(home);
  place = { home, cwd: workspace, env: { HOME: path.join(root, 'home') } };
  fs.mkdirSync(path.join(root, 'home'));
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function call(command: string, yes: boolean) {
  const run = await runCli(
    [
      'tools',
      'call',
      'run_command',
      JSON.stringify({ command }),
      '--json',
      '--workspace',
      workspace,
      ...(yes ? ['--yes'] : []),
    ],
    place,
  );
  return JSON.parse(run.stdout) as { outcome: string; text?: string; message?: string };
}

describe('everyday work in the sandbox', () => {
  it.each([
    ['git status', /On branch main[^]*modified:\s+README\.md/],
    ['git log --oneline', /first/],
    ['git diff', /\+Hello, world\./],
    ['ls', /README\.md[^]*package\.json/],
    ['pwd', /project/],
  ])('`%s` runs under a default rule, without asking', async (command, output) => {
    const outcome = await call(command, false);
    expect(outcome.outcome, outcome.message).toBe('ok');
    expect(outcome.text).toMatch(output);
    expect(outcome.text).not.toContain('sandbox: the OS sandbox blocked');
  });

  it('approved, it reads, tests and writes in the workspace', async () => {
    expect((await call('cat README.md', true)).text).toContain('Hello, world.');
    const test = await call('npm test', true);
    expect(test.text).toMatch(/^exit code 0/);
    expect(test.text).toContain('all 3 tests passed');
    const write = await call('mkdir -p notes && echo "done" > notes/today.md && cat notes/today.md', true);
    expect(write.text).toMatch(/^exit code 0[^]*done/);
    expect(fs.readFileSync(path.join(workspace, 'notes', 'today.md'), 'utf8')).toBe('done\n');
  });

  it('approved, a write outside the workspace is refused and the result says so', async () => {
    const outcome = await call(`echo x > ${path.join(root, 'outside.txt')}`, true);
    expect(fs.existsSync(path.join(root, 'outside.txt'))).toBe(false);
    expect(outcome.text).toMatch(/^exit code 2 \(failed\)/);
    expect(outcome.text).toContain(
      `sandbox: the OS sandbox blocked a write to ${path.join(root, 'outside.txt')} (outside the workspace and the temp folder)`,
    );
  });

  it('a model’s `git status` in `agenvoy chat` runs under the default rule with no terminal', async () => {
    const chat = await chatWithCalls(
      [{ name: 'run_command', args: { command: 'git status' } }],
      place,
      'ask',
    );
    expect(chat.code).toBe(0);
    expect(chat.toolResults.call_0).toMatch(/^exit code 0[^]*On branch main/);
  });
});
