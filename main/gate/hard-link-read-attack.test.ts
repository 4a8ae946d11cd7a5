// A hard link in the workspace to a secret file: the same file under a second, innocent name (`notes.liquid` for
// ~/.ssh/id_rsa, `data.json` for $AGENVOY_HOME/.secrets). Its path resolves inside the workspace and names nothing
// sensitive, so neither realpath nor a name check sees it; only the file's link count does. Through the real
// dispatcher and ConfirmGate, under rules that allow every call: the command asks, naming why (and is denied),
// the in-process readers (html_template's template, its includes, its data file) refuse, and writing
// through the link replaces the name, never the secret (docs/security.md, "Hard links").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { htmlTemplateTool } from '../../tools/builtin/html-template';
import { writeResultTool } from '../../tools/builtin/write-result';
import type { CallOutcome } from '../core/outcome';
import { gateFixture } from './testing/gate-fixture';
import { ScriptedPrompter } from './testing/scripted-prompter';

const canary = `PRIVATE KEY canary-${process.pid}-${Date.now()}`;

let base: string;
let workspace: string;
let home: string;
let fx: ReturnType<typeof gateFixture>;
let id = 0;
let prompter: ScriptedPrompter;
// What the person answers when asked; nobody (a denial) unless a test says otherwise.
let answer: 'allow_once' | null = null;

beforeEach(async () => {
  answer = null;
  prompter = new ScriptedPrompter(() => (answer ? { kind: answer } : { kind: 'deny' }));
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-hardlink-')));
  workspace = path.join(base, 'ws');
  home = path.join(base, 'home');
  fs.mkdirSync(workspace);
  fs.mkdirSync(path.join(home, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), canary);
  fx = gateFixture({
    prompter,
    sandbox: 'sandboxed',
    realCommands: true,
    homes: [home],
    extraTools: [htmlTemplateTool, writeResultTool],
  });
  fs.writeFileSync(path.join(fx.home, '.secrets'), JSON.stringify({ key: canary }));
  // The hostile repository's innocent names for the secrets (same file system: the temp folder).
  fs.linkSync(path.join(home, '.ssh', 'id_rsa'), path.join(workspace, 'notes.liquid'));
  fs.linkSync(path.join(home, '.ssh', 'id_rsa'), path.join(workspace, 'part.liquid'));
  fs.linkSync(path.join(fx.home, '.secrets'), path.join(workspace, 'data.json'));
  fs.writeFileSync(path.join(workspace, 'report.liquid'), `<h1>Report</h1>{% include 'part.liquid' %}`);
  for (const tool of ['run_command', 'html_template', 'write_result'])
    await fx.gate.rules.add({ tool, effect: 'allow' });
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
  fs.rmSync(fx.home, { recursive: true, force: true });
});

function call(name: string, args: Record<string, unknown>): Promise<CallOutcome> {
  return fx.dispatcher.dispatch({ id: `h${++id}`, name, args }, { chatId: 'chat-hardlink', workspace });
}

function text(outcome: CallOutcome): string {
  return outcome.outcome === 'ok' ? outcome.text : outcome.message;
}

/** Every file in the workspace, as one text: nothing the calls wrote may hold the secret. */
function written(): string {
  return fs
    .readdirSync(workspace)
    .filter((name) => !['notes.liquid', 'part.liquid', 'data.json'].includes(name))
    .map((name) => fs.readFileSync(path.join(workspace, name), 'utf8'))
    .join('\n');
}

describe('a hard link in the workspace to a secret file', () => {
  it('asks before a command reads it, naming why (denied here)', async () => {
    for (const command of ['cat notes.liquid', 'cat ./data.json', 'head -c 100 sub/../notes.liquid']) {
      const outcome = await call('run_command', { command });
      expect(outcome.outcome, command).toBe('denied');
      expect(text(outcome), command).not.toContain('canary');
    }
    expect(prompter.questions.map((item) => item.sensitive)).toEqual(
      Array(3).fill(expect.stringContaining('a file with more than one name')),
    );
  });

  it('is never read by html_template as a template, an include or a data file', async () => {
    const attempts: Array<Record<string, unknown>> = [
      { output: 'a.html', template_file: 'notes.liquid' },
      { output: 'b.html', template_file: 'report.liquid' },
      { output: 'c.html', template: `{% include 'part.liquid' %}` },
      { output: 'd.html', template: `{% render "./part.liquid" %}` },
      { output: 'e.html', template: '{{ key }}', data_file: 'data.json' },
    ];
    for (const args of attempts) {
      const outcome = await call('html_template', args);
      const what = JSON.stringify(args);
      expect(outcome.outcome, what).not.toBe('ok');
      expect(text(outcome), what).not.toContain('canary');
      if (!('data_file' in args)) expect(text(outcome), what).toContain('more than one name (a hard link');
    }
    // The data file is named in the arguments: the gate asks (denied). The templates are read before the gate
    // (pinned, so the approval shows them): the reader refuses them itself.
    expect(prompter.questions.map((item) => item.sensitive)).toEqual([
      expect.stringContaining('a file with more than one name'),
    ]);
    expect(written()).not.toContain('canary');
  });

  it('asks before write_result replaces it, and then replaces the name, never writing through', async () => {
    answer = 'allow_once';
    const outcome = await call('write_result', { path: 'notes.liquid', content: 'mine', overwrite: true });
    expect(prompter.questions).toHaveLength(1);
    expect(outcome.outcome).toBe('ok');
    expect(fs.readFileSync(path.join(home, '.ssh', 'id_rsa'), 'utf8')).toBe(canary);
    expect(fs.readFileSync(path.join(workspace, 'notes.liquid'), 'utf8')).toBe('mine');
  });
});
