import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPEN_COMMAND_ENV, OPEN_TARGET_ENV, opener, openFileTool } from './open-file';
import { localProcessPort } from '../sdk/testing/process-port';
import { testContext } from '../sdk/testing/tool-context';
import type { ToolContext, ToolResult } from '../sdk/types';

let dir: string;
let workspace: string;
let recorded: string;
const saved = process.env[OPEN_COMMAND_ENV];

// An opener that records its argument, as xdg-open would receive it, then runs `body`.
function writeOpener(body: string): string {
  const file = path.join(dir, `opener-${Math.random().toString(36).slice(2)}.sh`);
  fs.writeFileSync(file, `#!/bin/sh\nprintf '%s' "$1" > ${JSON.stringify(recorded)}\n${body}\n`, {
    mode: 0o755,
  });
  return file;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-open-'));
  workspace = path.join(dir, 'workspace');
  fs.mkdirSync(path.join(workspace, 'reports'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'reports', 'summary.html'), '<h1>hi</h1>');
  recorded = path.join(dir, 'opened.txt');
  process.env[OPEN_COMMAND_ENV] = writeOpener('exit 0');
});
afterEach(() => {
  if (saved === undefined) delete process.env[OPEN_COMMAND_ENV];
  else process.env[OPEN_COMMAND_ENV] = saved;
  fs.rmSync(dir, { recursive: true, force: true });
});

function setup(overrides: Partial<ToolContext> = {}) {
  return testContext({ workspace, services: { processes: localProcessPort() }, ...overrides });
}

const text = (result: ToolResult) =>
  typeof result === 'string' ? result : result.content.map((p) => ('text' in p ? p.text : '')).join('');

describe('open_file', () => {
  it('opens a workspace file by its resolved path', async () => {
    const result = await openFileTool.handler({ target: 'reports/summary.html' }, setup().ctx);
    const file = path.join(workspace, 'reports', 'summary.html');
    expect(fs.readFileSync(recorded, 'utf8')).toBe(file);
    expect(text(result)).toBe(`opened ${file} with ${process.env[OPEN_COMMAND_ENV]}`);
  });

  it('opens a file outside the workspace and an http(s) URL', async () => {
    const outside = path.join(dir, 'elsewhere.txt');
    fs.writeFileSync(outside, 'x');
    await openFileTool.handler({ target: outside }, setup().ctx);
    expect(fs.readFileSync(recorded, 'utf8')).toBe(outside);
    await openFileTool.handler({ target: 'https://example.com/docs?q=a&b=c' }, setup().ctx);
    expect(fs.readFileSync(recorded, 'utf8')).toBe('https://example.com/docs?q=a&b=c');
  });

  it('returns while the opened app keeps running, without waiting for it', async () => {
    process.env[OPEN_COMMAND_ENV] = writeOpener('sleep 2');
    const t0 = Date.now();
    await openFileTool.handler({ target: 'reports/summary.html' }, setup().ctx);
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('refuses other URL schemes and missing files, naming `target`, without running the opener', async () => {
    const { ctx } = setup();
    for (const target of ['file:///etc/passwd', 'javascript:alert(1)', 'vscode://open']) {
      await expect(openFileTool.handler({ target }, ctx)).rejects.toMatchObject({
        code: 'invalid_arguments',
        message: expect.stringMatching(/^`target` must be a file path or an http\(s\) URL/),
      });
    }
    await expect(openFileTool.handler({ target: 'nope.pdf' }, ctx)).rejects.toThrow(
      /^`target` does not exist/,
    );
    await expect(openFileTool.handler({ target: '' }, ctx)).rejects.toThrow(
      /^`target` must be a non-empty string/,
    );
    expect(fs.existsSync(recorded)).toBe(false);
  });

  it('says clearly when the opener is missing or fails', async () => {
    process.env[OPEN_COMMAND_ENV] = path.join(dir, 'no-such-opener');
    await expect(openFileTool.handler({ target: 'reports/summary.html' }, setup().ctx)).rejects.toMatchObject(
      {
        code: 'opener_missing',
        message: expect.stringContaining(`${OPEN_COMMAND_ENV} to a program that opens files`),
      },
    );
    process.env[OPEN_COMMAND_ENV] = writeOpener('echo "no application for text/html" >&2; exit 3');
    await expect(openFileTool.handler({ target: 'reports/summary.html' }, setup().ctx)).rejects.toMatchObject(
      {
        code: 'open_failed',
        message: expect.stringMatching(/\(exit code 3\): no application for text\/html$/),
      },
    );
  });

  it('starts nothing once its call is cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the user'));
    await expect(
      openFileTool.handler({ target: 'reports/summary.html' }, setup({ signal: controller.signal }).ctx),
    ).rejects.toThrow('cancelled by the user');
    expect(fs.existsSync(recorded)).toBe(false);
  });
});

// Windows used to open through `cmd /d /c start "" TARGET`. cmd.exe reads `&`, `|` and `^` in an unquoted argument as
// its own (Node quotes an argument only when it holds a space), so an approved `https://x.test/?a=1&calc.exe` also ran
// calc.exe. The target now reaches Windows only as data in an environment variable. (The Windows program itself cannot
// run on this machine; what is checked is that no command line carries the target.)
describe('open_file on Windows (attack: a second command hidden in the target)', () => {
  const hostile = [
    'https://x.test/?a=1&calc.exe',
    'https://x.test/|whoami',
    'https://x.test/^&calc',
    'C:\\Users\\me\\Downloads\\report&calc.pdf',
    'C:\\Users\\me\\a b\\x%COMSPEC%.pdf',
    'https://x.test/$(calc);calc',
  ];
  const env = { SystemRoot: 'C:\\Windows' };

  it.each(hostile)('passes %s in the environment, never on a command line', (target) => {
    const { command, args, env: added } = opener(target, 'win32', env);
    expect(command).toBe('C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
    expect(added).toEqual({ [OPEN_TARGET_ENV]: target });
    for (const arg of args) expect(arg).not.toContain(target);
    expect(args.join(' ')).not.toMatch(/cmd|start ""/i);
    // The script reads the target from the variable and hands it to the shell to open, as a double click would.
    expect(args.at(-1)).toContain(`$i.FileName = $env:${OPEN_TARGET_ENV}`);
    expect(args.at(-1)).toContain('UseShellExecute = $true');
  });

  it('keeps the target as the one argument of xdg-open, open and a custom opener', () => {
    const target = 'https://x.test/?a=1&calc.exe';
    expect(opener(target, 'linux', {})).toEqual({ command: 'xdg-open', args: [target] });
    expect(opener(target, 'darwin', {})).toEqual({ command: 'open', args: [target] });
    expect(opener(target, 'win32', { [OPEN_COMMAND_ENV]: '/bin/viewer' })).toEqual({
      command: '/bin/viewer',
      args: [target],
    });
  });
});
