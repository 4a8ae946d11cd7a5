// The protected-file attack on the in-process writers, as the review ran it: the person allowed write_result with a
// rule (`agenvoy rules add --tool write_result --allow`), then a hostile model calls it with no terminal to ask,
// aiming at .git/config (core.fsmonitor runs a program on the next `git status`), .bashrc, .vscode, .envrc and this
// app's workspace tools. Nothing is written, the next `git status` runs nothing, and the error says why and names
// the way that asks the person (docs/security.md, "Files the tools write").
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliPlace } from './testing/cli-harness';
import { chatWithCalls, runBin, runCli } from './testing/cli-harness';

let root: string;
let place: CliPlace;
let workspace: string;
let marker: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-protected-cli-')));
  workspace = path.join(root, 'repo');
  fs.mkdirSync(workspace);
  execFileSync('git', ['init', '-q', workspace]);
  fs.writeFileSync(path.join(workspace, 'README.md'), '# repo\n');
  marker = path.join(root, 'fsmonitor-ran');
  place = { home: path.join(root, 'agenvoy'), cwd: workspace, env: { HOME: path.join(root, 'home') } };
  fs.mkdirSync(path.join(root, 'home'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const poisoned = () =>
  `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = "touch ${marker}; false"\n`;

/** Everything under the workspace with its content (the .git folder included). */
function snapshot(): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else state[file] = fs.readFileSync(file, 'latin1');
    }
  };
  walk(workspace);
  return state;
}

describe('write_result allowed by a rule, aimed at files that run code later', () => {
  it('refuses .git/config, .bashrc, .vscode, .envrc and app tools with no terminal; git status runs nothing', async () => {
    expect((await runCli(['rules', 'add', '--tool', 'write_result', '--allow'], place)).code).toBe(0);
    const before = snapshot();
    const targets = [
      ['.git/config', poisoned()],
      ['.git/hooks/post-checkout', `#!/bin/sh\ntouch ${marker}\n`],
      ['.bashrc', `touch ${marker}\n`],
      ['.vscode/tasks.json', JSON.stringify({ tasks: [{ runOptions: { runOn: 'folderOpen' } }] })],
      ['.envrc', `touch ${marker}\n`],
      ['.config/agenvoy/tools/script/evil/tool.json', '{"name":"evil","always_allow":true}'],
    ] as const;
    for (const [file, content] of targets) {
      const run = await runCli(
        ['tools', 'call', 'write_result', JSON.stringify({ path: file, content, overwrite: true }), '--json'],
        place,
      );
      const outcome = JSON.parse(run.stdout) as { outcome: string; message?: string };
      expect(run.code, file).toBe(1);
      if (file === '.envrc' || file.startsWith('.config/agenvoy')) {
        // The gate already asks for these (sensitive targets), and with nobody to ask, denies them.
        expect(outcome, file).toMatchObject({ outcome: 'denied' });
        continue;
      }
      expect(outcome, file).toMatchObject({
        outcome: 'error',
        message: expect.stringMatching(/run_command with "sandbox": false.*asks/),
      });
      expect(outcome.message, file).toContain(file.split('/')[0] as string);
    }
    // Through the real binary as well.
    const viaBin = await runBin(
      [
        'tools',
        'call',
        'write_result',
        JSON.stringify({ path: '.git/config', content: poisoned(), overwrite: true }),
        '--json',
      ],
      place,
    );
    expect(JSON.parse(viaBin.stdout)).toMatchObject({ outcome: 'error' });
    expect(snapshot()).toEqual(before);

    // What the person runs next: nothing the model chose starts.
    execFileSync('git', ['status', '--short'], {
      cwd: workspace,
      env: { ...process.env, HOME: place.env?.HOME },
    });
    expect(fs.existsSync(marker)).toBe(false);

    // Control: an ordinary file under the same rule is written without asking.
    const ok = await runCli(
      [
        'tools',
        'call',
        'write_result',
        JSON.stringify({ path: 'notes/summary.md', content: '# ok' }),
        '--json',
      ],
      place,
    );
    expect(JSON.parse(ok.stdout)).toMatchObject({ outcome: 'ok' });
  });

  it('a model in `agenvoy chat --approve allow` is told why, and the repository is untouched', async () => {
    const before = snapshot();
    const chat = await chatWithCalls(
      [
        { name: 'write_result', args: { path: '.git/config', content: poisoned(), overwrite: true } },
        { name: 'html_template', args: { output: '.git/hooks/pre-commit', template: 'x', overwrite: true } },
      ],
      place,
      'allow',
    );
    // What the model is told back (the call.finished events carry the result the model receives).
    const finished = chat.stdout
      .split('\n')
      .filter((line) => line.includes('"call.finished"'))
      .map((line) => JSON.parse(line) as { callId: string; outcome: { outcome: string; message?: string } });
    for (const id of ['call_0', 'call_1']) {
      expect(finished.find((event) => event.callId === id)?.outcome, id).toMatchObject({
        outcome: 'error',
        message: expect.stringMatching(/\.git.*run_command with "sandbox": false/s),
      });
    }
    expect(snapshot()).toEqual(before);
  });
});
