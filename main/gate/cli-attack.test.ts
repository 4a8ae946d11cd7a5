// The headline attacks of docs/security.md through `agenvoy tools call` with no terminal (in process, and once
// through the real bin/agenvoy): each is denied, and nothing is written, run, read or sent.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileRepo } from '../../tools/sdk/testing/hostile-repo';
import type { CliIo } from '../cli/io';
import { main } from '../launcher/main';

let base: string;
let agenvoyHome: string;
let fakeHome: string;
let workspace: string;
let hits = 0;
let server: http.Server;
let port = 0;

beforeAll(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-cli-attack-')));
  agenvoyHome = path.join(base, 'agenvoy');
  fakeHome = path.join(base, 'home');
  fs.mkdirSync(path.join(fakeHome, '.ssh'), { recursive: true });
  fs.writeFileSync(path.join(fakeHome, '.ssh', 'config'), 'Host *');
  workspace = hostileRepo(base, path.join(base, 'ws'), {}).root;
  server = http.createServer((_req, res) => {
    hits++;
    res.end('secret-bearing answer');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function cli(argv: string[], cwd = workspace) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: Readable.from([]),
    interactive: false,
    env: { AGENVOY_HOME: agenvoyHome, HOME: fakeHome },
    cwd,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

async function call(tool: string, args: Record<string, unknown>) {
  const { stdout } = await cli(['tools', 'call', tool, JSON.stringify(args), '--json']);
  return JSON.parse(stdout) as { outcome: string; message?: string };
}

describe('agenvoy tools call with no terminal', () => {
  it('denies a quoted --output and git global options, and writes nothing', async () => {
    const victim = path.join(base, 'victim');
    const config = fs.readFileSync(path.join(workspace, '.git', 'config'), 'utf8');
    for (const command of [
      'git diff --no-index "--output=../victim" a.txt a.txt',
      "git log '--output=.git/config' -1",
      'git log --outp=../victim',
      "git -c core.pager='touch ../victim' -p log",
    ])
      expect((await call('run_command', { command })).outcome, command).toBe('denied');
    expect(fs.existsSync(victim)).toBe(false);
    expect(fs.readFileSync(path.join(workspace, '.git', 'config'), 'utf8')).toBe(config);
  });

  it('denies git in a repository whose config runs a program, and runs nothing', async () => {
    const repo = hostileRepo(base, path.join(workspace, 'vendor', 'evil'), {
      'core.fsmonitor': '$PROGRAM fsmonitor',
    });
    for (const cwd of ['vendor/evil', ''])
      expect((await call('run_command', { command: 'git status', cwd })).outcome, cwd).toBe('denied');
    expect(repo.ran()).toEqual([]);
    fs.rmSync(repo.root, { recursive: true });
  });

  it('names the sensitive target of ~/${x:-.ssh}/id_${x:-rsa} and of a symlinked cwd under an allow-everything rule', async () => {
    expect((await cli(['rules', 'add', '--tool', 'run_command', '--allow'])).code).toBe(0);
    fs.symlinkSync(path.join(fakeHome, '.ssh'), path.join(workspace, 'keys'));
    const expanded = await call('run_command', { command: 'cat ~/${x:-.ssh}/id_${x:-rsa}' });
    const linked = await call('run_command', { command: 'cat config', cwd: 'keys' });
    for (const outcome of [expanded, linked]) {
      expect(outcome.outcome).toBe('denied');
      expect(outcome.message).toContain('SSH keys');
      expect(outcome.message).not.toContain('Host *');
    }
    fs.rmSync(path.join(workspace, 'keys'));
  });

  it('denies a URL that only says .example.com as text, and sends nothing', async () => {
    const rule = [
      'rules',
      'add',
      '--tool',
      'http_request',
      '--pattern',
      'https://*.example.com/**',
      '--allow',
    ];
    expect((await cli(rule)).code).toBe(0);
    for (const url of [
      `http://127.0.0.1:${port}?.example.com/`,
      `http://127.0.0.1:${port}#.example.com/`,
      `http://127.0.0.1:${port}\\.example.com/`,
      `http://a.example.com@127.0.0.1:${port}/`,
    ])
      expect((await call('http_request', { url })).outcome, url).toBe('denied');
    expect(hits).toBe(0);
  });

  it('denies the quoted --output through the real bin/agenvoy', async () => {
    const bin = path.resolve(__dirname, '../../bin/agenvoy');
    // A home of its own: the rules the other cases added do not apply here.
    const env: NodeJS.ProcessEnv = { ...process.env, AGENVOY_HOME: path.join(base, 'agenvoy-bin') };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    const args = JSON.stringify({ command: 'git diff --no-index "--output=../victim-bin" a.txt a.txt' });
    const result = await promisify(execFile)(bin, ['tools', 'call', 'run_command', args, '--json'], {
      env,
      cwd: workspace,
    }).catch((error: { stdout: string }) => error);
    expect(JSON.parse(result.stdout)).toMatchObject({ outcome: 'denied' });
    expect(fs.existsSync(path.join(base, 'victim-bin'))).toBe(false);
  }, 30_000);
});
