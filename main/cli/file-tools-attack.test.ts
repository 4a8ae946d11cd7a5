// The headline html_template and file-writing attacks of issue 11, driven as a person would run them:
// `agenvoy tools call <tool> '<json>' --yes` with no terminal, in-process and through the real bin/agenvoy.
// Whatever the arguments, nothing outside the workspace changes, no program runs, no outside file is read.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CliIo } from './io';
import { main } from '../launcher/main';

const ORIGINAL_KEYS = 'ssh-ed25519 AAAA-the-real-key user@host\n';

let root: string;
let agenvoyHome: string;
let home: string;
let workspace: string;
let marker: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-cli-attack-'));
  agenvoyHome = path.join(root, 'agenvoy');
  home = path.join(root, 'home');
  workspace = path.join(root, 'workspace');
  for (const dir of [agenvoyHome, path.join(home, '.ssh'), workspace]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'authorized_keys'), ORIGINAL_KEYS);
  fs.writeFileSync(path.join(home, '.bashrc'), 'export PS1=safe\n');
  fs.writeFileSync(path.join(root, 'secret.liquid'), 'SECRET-FROM-OUTSIDE');
  marker = path.join(root, 'ran-a-program');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** Every file outside the workspace with its content: an attack must leave it as it was. */
function outside(): Record<string, string> {
  const state: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of fs.readdirSync(dir)) {
      const file = path.join(dir, name);
      if (file === workspace || file === agenvoyHome) continue;
      const stat = fs.lstatSync(file);
      if (stat.isDirectory()) walk(file);
      else
        state[file] = stat.isSymbolicLink() ? `-> ${fs.readlinkSync(file)}` : fs.readFileSync(file, 'latin1');
    }
  };
  walk(root);
  return state;
}

/** `agenvoy tools call <tool> <json> --yes --json` in-process, with no terminal. */
async function toolsCall(tool: string, args: Record<string, unknown>) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: Readable.from([]),
    interactive: false,
    env: { AGENVOY_HOME: agenvoyHome, HOME: home },
    cwd: workspace,
  };
  const code = await main(['tools', 'call', tool, JSON.stringify(args), '--yes', '--json'], io);
  return { code, outcome: JSON.parse(stdout) as Record<string, unknown> & { outcome: string }, stderr };
}

const ESCAPES = [
  '{{ range.constructor }}{{ x.constructor.constructor }}',
  `{{ x.constructor.constructor("return process.getBuiltinModule('child_process').execSync('touch MARKER')")() }}`,
  `{{ process.getBuiltinModule('child_process') }}{{ global.process.mainModule }}{{ require }}`,
  '{{ x.__proto__.constructor.constructor }}{{ x["constructor"]["constructor"] }}',
  `{% assign cp = "child_process" %}{{ process.getBuiltinModule(cp).execSync("touch MARKER") }}`,
];

describe('agenvoy tools call html_template --yes', () => {
  it('a template never reaches Node or runs a program', async () => {
    const before = outside();
    for (const template of ESCAPES.map((t) => t.replaceAll('MARKER', marker))) {
      const { outcome } = await toolsCall('html_template', {
        output: 'out.html',
        template,
        data: { x: { a: 1 } },
        overwrite: true,
      });
      const text =
        outcome.outcome === 'ok'
          ? fs.readFileSync(path.join(workspace, 'out.html'), 'utf8')
          : String(outcome.message);
      expect(['ok', 'error'], template).toContain(outcome.outcome);
      expect(text, template).not.toMatch(/native code|function\s*\w*\s*\(|\[object (?!Object\])/);
      expect(fs.existsSync(marker), template).toBe(false);
    }
    expect(outside()).toEqual(before);
  });

  it('includes and template files never read outside the workspace', async () => {
    fs.symlinkSync(path.join(root, 'secret.liquid'), path.join(workspace, 'link.liquid'));
    fs.symlinkSync(root, path.join(workspace, 'up'));
    const attempts: Array<Record<string, unknown>> = [
      { template: "{% include '../secret.liquid' %}" },
      { template: `{% render '${path.join(root, 'secret.liquid')}' %}` },
      { template: "{% include 'up/secret.liquid' %}" },
      { template: "{% include 'link.liquid' %}" },
      { template_file: 'link.liquid' },
      { template_file: '../secret.liquid' },
    ];
    const before = outside();
    for (const args of attempts) {
      const { outcome, code } = await toolsCall('html_template', { output: 'o.html', ...args });
      expect(code, JSON.stringify(args)).not.toBe(0);
      expect(outcome).toMatchObject({ outcome: 'error' });
      expect(String(outcome.message), JSON.stringify(args)).toMatch(
        /outside the workspace|leads out of the workspace|must stay inside the workspace/,
      );
      expect(JSON.stringify(outcome)).not.toContain('SECRET-FROM-OUTSIDE');
    }
    expect(fs.existsSync(path.join(workspace, 'o.html'))).toBe(false);
    expect(outside()).toEqual(before);
  });

  it('a runaway template ends with a clear error, and the output never lands on a symlink target', async () => {
    const bomb = await toolsCall('html_template', {
      output: 'bomb.html',
      template: '{% for i in (1..2000000000) %}{{ i }}{% endfor %}',
    });
    expect(bomb.outcome).toMatchObject({ outcome: 'error', code: 'template_error' });
    expect(String(bomb.outcome.message)).toMatch(/memory alloc limit exceeded/);
    fs.symlinkSync(path.join(home, '.bashrc'), path.join(workspace, 'report.html'));
    const before = outside();
    const refused = await toolsCall('html_template', { output: 'report.html', template: 'PWNED' });
    expect(refused.outcome).toMatchObject({ outcome: 'error', code: 'exists' });
    expect(String(refused.outcome.message)).toMatch(/is a symlink, and a symlink is never written through/);
    const replaced = await toolsCall('html_template', {
      output: 'report.html',
      template: 'PWNED',
      overwrite: true,
    });
    expect(replaced.outcome).toMatchObject({ outcome: 'ok' });
    expect(fs.lstatSync(path.join(workspace, 'report.html')).isFile()).toBe(true);
    expect(outside()).toEqual(before);
  });
});

describe('agenvoy tools call write_result --yes', () => {
  it('a symlink to ~/.ssh/authorized_keys, or a symlinked folder, never gets written', async () => {
    fs.symlinkSync(path.join(home, '.ssh', 'authorized_keys'), path.join(workspace, 'notes.md'));
    fs.symlinkSync(path.join(home, '.ssh'), path.join(workspace, 'reports'));
    const before = outside();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [
        { path: 'notes.md', content: 'ssh-ed25519 ATTACKER' },
        /is a symlink, and a symlink is never written through/,
      ],
      [
        { path: 'reports/authorized_keys', content: 'ssh-ed25519 ATTACKER', overwrite: true },
        /leads out of the workspace through the symlink reports/,
      ],
      [
        { path: '../home/.ssh/authorized_keys', content: 'x', overwrite: true },
        /must stay inside the workspace/,
      ],
      [{ path: path.join(home, '.bashrc'), content: 'x', overwrite: true }, /must stay inside the workspace/],
    ];
    for (const [args, why] of cases) {
      const { outcome } = await toolsCall('write_result', args);
      expect(outcome, JSON.stringify(args)).toMatchObject({ outcome: 'error' });
      expect(String(outcome.message)).toMatch(why);
    }
    expect(outside()).toEqual(before);
    expect(fs.readFileSync(path.join(home, '.ssh', 'authorized_keys'), 'utf8')).toBe(ORIGINAL_KEYS);
  });
});

describe('through the real bin/agenvoy', () => {
  it('the headline attacks are contained there too', async () => {
    fs.symlinkSync(path.join(home, '.ssh', 'authorized_keys'), path.join(workspace, 'keys.md'));
    const bin = path.resolve(__dirname, '../../bin/agenvoy');
    const env: NodeJS.ProcessEnv = { ...process.env, AGENVOY_HOME: agenvoyHome, HOME: home };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    const run = async (tool: string, args: Record<string, unknown>) => {
      const result = await promisify(execFile)(
        bin,
        ['tools', 'call', tool, JSON.stringify(args), '--yes', '--json'],
        {
          env,
          cwd: workspace,
        },
      ).catch((error: { stdout: string }) => error);
      return JSON.parse(result.stdout) as Record<string, unknown>;
    };
    const before = outside();
    const template = ESCAPES[1]?.replaceAll('MARKER', marker) ?? '';
    expect(await run('html_template', { output: 'o.html', template, data: { x: {} } })).toMatchObject({
      outcome: 'error',
      code: 'template_error',
    });
    expect(
      await run('write_result', { path: 'keys.md', content: 'ssh-ed25519 ATTACKER', overwrite: false }),
    ).toMatchObject({
      outcome: 'error',
      code: 'exists',
    });
    expect(fs.existsSync(marker)).toBe(false);
    expect(outside()).toEqual(before);
  }, 60_000);
});
