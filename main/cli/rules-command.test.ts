import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RuleView } from '../gate/rule-types';
import type { CliIo } from './io';
import { main } from '../launcher/main';

let tmp: string;
let home: string;
let workspace: string;
let marker: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-rules-cli-'));
  home = path.join(tmp, 'home');
  workspace = path.join(tmp, 'workspace');
  // Inside the workspace: the script runs in the OS sandbox, which writes nowhere else.
  marker = path.join(workspace, 'marker.txt');
  fs.mkdirSync(workspace, { recursive: true });
  writeMarkerTool(
    'Create a marker file at the given path.\nUse when testing approvals from the command line.',
  );
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function writeMarkerTool(description: string): void {
  const folder = path.join(home, 'tools', 'script', 'touch_marker');
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(
    path.join(folder, 'tool.json'),
    JSON.stringify({
      name: 'touch_marker',
      description,
      parameters: {
        type: 'object',
        properties: { marker: { type: 'string', description: 'Path of the marker file.' } },
      },
    }),
  );
  fs.writeFileSync(
    path.join(folder, 'script.js'),
    `let s = ''; process.stdin.on('data', (d) => (s += d)); process.stdin.on('end', () => { require('fs').writeFileSync(JSON.parse(s).marker, 'ran'); console.log('done'); });`,
  );
}

function cli(options: { interactive?: boolean; input?: string } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const stdin = new PassThrough();
  if (options.input !== undefined) stdin.write(options.input);
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    stdin,
    interactive: options.interactive ?? false,
    env: { ...process.env, AGENVOY_HOME: home },
    cwd: workspace,
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

async function rules(): Promise<RuleView[]> {
  const c = cli();
  expect(await main(['rules', 'list', '--json'], c.io)).toBe(0);
  return JSON.parse(c.stdout()) as RuleView[];
}

const callMarker = (io: CliIo) =>
  main(['tools', 'call', 'script_touch_marker', JSON.stringify({ marker })], io);

describe('agenvoy rules', () => {
  it('lists the shipped defaults as a table and as JSON', async () => {
    const c = cli();
    expect(await main(['rules', 'list'], c.io)).toBe(0);
    expect(c.stdout()).toMatch(/^ID\s+ORIGIN\s+EFFECT\s+TOOL\s+PATTERN\s+CREATED/);
    expect(c.stdout()).toMatch(
      /default-git-status\s+default\s+allow\s+run_command\s+git status \*\*\s+shipped/,
    );
    const list = await rules();
    // The defaults are argv predicates; the pattern and note summarise them (default-rules.ts).
    expect(list.find((r) => r.id === 'default-git-log')).toMatchObject({
      origin: 'default',
      pattern: 'git log **',
      except: [],
      note: expect.stringContaining('--output'),
      void: false,
    });
  });

  it('revokes a default for good, and reports an unknown id', async () => {
    const c = cli();
    expect(await main(['rules', 'revoke', 'default-ls'], c.io)).toBe(0);
    expect(c.stdout()).toBe('revoked default-ls: allow run_command "ls **"\n');
    expect((await rules()).map((r) => r.id)).not.toContain('default-ls');
    const again = cli();
    expect(await main(['rules', 'revoke', 'default-ls'], again.io)).toBe(1);
    expect(again.stderr()).toContain('no rule default-ls in force');
  });

  it('refuses an add without exactly one effect', async () => {
    const c = cli();
    expect(await main(['rules', 'add', '--tool', 'x', '--allow', '--deny'], c.io)).toBe(2);
    expect(c.stderr()).toContain('exactly one of --allow or --deny');
    expect(await main(['rules', 'add', '--allow'], cli().io)).toBe(2);
  });
});

describe('agenvoy tools call through the confirm gate', () => {
  it('without a terminal denies with a clear message and runs nothing', async () => {
    const c = cli();
    expect(await callMarker(c.io)).toBe(1);
    expect(c.stderr()).toContain(
      'denied: script_touch_marker needs approval and there is no terminal to ask; pass --yes to allow it, or add a rule',
    );
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('runs without asking once an allow rule exists, and stops applying it when the tool changes', async () => {
    const add = cli();
    expect(await main(['rules', 'add', '--tool', 'script_touch_marker', '--allow'], add.io)).toBe(0);
    expect(add.stdout()).toMatch(/^added rule-[0-9a-f]+: always allow script_touch_marker \(any arguments\)/);
    const [rule] = (await rules()).filter((r) => r.origin === 'user');
    expect(Object.keys(rule?.definitions ?? {})).toEqual(['script_touch_marker']);
    expect(await callMarker(cli().io)).toBe(0);
    expect(fs.readFileSync(marker, 'utf8')).toBe('ran');
    // The script's author changes the description: the rule is void and the call asks (and here, cannot).
    fs.rmSync(marker);
    writeMarkerTool(
      'Create a marker file, and much more, at the given path.\nUse when testing approvals from the command line.',
    );
    const listed = cli();
    await main(['rules', 'list'], listed.io);
    expect(listed.stdout()).toContain('VOID: definition changed (script_touch_marker)');
    const voided = cli();
    expect(await callMarker(voided.io)).toBe(1);
    expect(fs.existsSync(marker)).toBe(false);
    // The denial names the voided rule as voided, and says adding it again approves the new definition.
    expect(voided.stderr()).toContain(
      `denied: script_touch_marker needs approval (allow rule ${rule?.id} was voided: the tool's definition ` +
        'changed since it approved it) and there is no terminal to ask; pass --yes to allow it, or, once you have ' +
        'checked what changed, add the voided rule again to approve the new definition',
    );
    const asked = cli({ interactive: true, input: 'n\n\n' });
    expect(await callMarker(asked.io)).toBe(1);
    expect(asked.stderr()).toContain(
      `! rule ${rule?.id} was voided: the tool's definition changed since it approved it`,
    );
    expect(await main(['rules', 'add', '--tool', 'script_touch_marker', '--allow'], cli().io)).toBe(0);
    expect((await rules()).filter((r) => r.origin === 'user').map((r) => [r.id, r.void])).toEqual([
      [rule?.id, false],
    ]);
    expect(await callMarker(cli().io)).toBe(0);
  });

  it('denies without asking under an always-deny rule, even at a terminal and with --yes', async () => {
    expect(await main(['rules', 'add', '--tool', 'script_*', '--deny', '--json'], cli().io)).toBe(0);
    const c = cli({ interactive: true, input: 'y\n' });
    expect(await callMarker(c.io)).toBe(1);
    expect(c.stderr()).not.toContain('Approve tool call');
    expect(c.stderr()).toMatch(/denied: the user always denies script_\* \(rule rule-/);
    expect(
      await main(['tools', 'call', 'script_touch_marker', JSON.stringify({ marker }), '--yes'], cli().io),
    ).toBe(1);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('asks at a terminal; "always allow" there lets a later call run without a terminal', async () => {
    const c = cli({ interactive: true, input: 'a\n' });
    expect(await callMarker(c.io)).toBe(0);
    expect(c.stderr()).toContain('Approve tool call script_touch_marker');
    expect(c.stderr()).toContain(
      `source:  script folder ${path.join(home, 'tools', 'script', 'touch_marker')}`,
    );
    expect(c.stderr()).toMatch(/Saved rule rule-[0-9a-f]+: always allow script_touch_marker/);
    fs.rmSync(marker);
    expect(await callMarker(cli().io)).toBe(0);
    expect(fs.existsSync(marker)).toBe(true);
  });
});
