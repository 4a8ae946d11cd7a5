// A hostile model reaching the app's own files and environment through /proc (docs/security.md, "Process files").
// The gate resolved `/proc/self/…` links in its own process, where `/proc/self/cwd/mcp.json` is a harmless file of
// the app's working folder; a trusted file-reading MCP server opens the same path in its own process, whose working
// folder is $AGENVOY_HOME, so mcp.json with its tokens, the settings and the chat database were read unasked, and
// `/proc/self/environ` and `/proc/<the app>/environ` printed the keys in the environment. A default read-only rule
// (`ls`) likewise took `/proc/self/cwd/…` for the app's folder while the sandboxed command lists its own, through a
// committed link out of the workspace. Through `agenvoy tools call` with nobody at the terminal: each is denied.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processLocation } from '../gate/sensitive-paths';
import { runBin, runCli } from './testing/cli-harness';

const SERVER = path.resolve(__dirname, '../adapters/mcp/fixtures/file-reader-server.mjs');
const CANARY = 'CANARY-proc-5d1f-TOKEN';

let root: string;
let home: string;
let userHome: string;
let cwd: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-proc-')));
  home = path.join(root, 'agenvoy');
  userHome = path.join(root, 'home');
  cwd = path.join(root, 'ws');
  const put = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  put(path.join(cwd, 'README.md'), 'plain words\n');
  put(path.join(root, 'outside', 'secret.txt'), `${CANARY}\n`);
  fs.mkdirSync(path.join(cwd, 'docs'));
  // A committed link out of the workspace, harmless as long as nothing follows it; and one to /proc/net/.., which the
  // kernel reads as /proc/self/.
  fs.symlinkSync('../..', path.join(cwd, 'docs', 'up'));
  fs.symlinkSync('/proc/net/..', path.join(cwd, 'pn'));
  put(
    path.join(home, 'mcp.json'),
    JSON.stringify({
      servers: {
        files: { command: process.execPath, args: [SERVER], trust: true, env: { API_TOKEN: CANARY } },
      },
    }),
  );
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const call = (tool: string, args: unknown, env: Record<string, string> = {}) =>
  runCli(['tools', 'call', tool, JSON.stringify(args), '--workspace', cwd], {
    home,
    cwd,
    env: { HOME: userHome, ...env },
  });

describe('process files', () => {
  it("a trusted server's reads of the app's files and environment through /proc are denied", async () => {
    const paths = [
      '/proc/self/cwd/mcp.json',
      '/proc/thread-self/cwd/mcp.json',
      '/proc/self/cwd/desktop/settings.json',
      '/proc/self/environ',
      '/proc/self/root/proc/1/environ',
      '/dev/fd/../cwd/mcp.json',
      '/dev/stdin/../../cwd/mcp.json',
      '/proc/SELF/cwd/mcp.json',
      '/proc/sel?/cwd/mcp.json',
      // Found later: links into /proc/self that are not named self (/proc/net is /proc/self/net), then `..`.
      '/proc/net/../cwd/mcp.json',
      '/proc/net/../environ',
      '/proc/mounts/../cwd/mcp.json',
      `${cwd}/pn/cwd/mcp.json`,
      `${cwd}/pn/environ`,
    ];
    for (const file of paths) {
      const run = await call('mcp__files__read_text_file', { path: file }, { APP_SECRET: CANARY });
      expect(run.stdout + run.stderr, file).not.toContain(CANARY);
      expect(run.code, file).not.toBe(0);
      expect(run.stdout + run.stderr, file).toMatch(/denied: /);
    }
    // The app's own process, found from the server's parent.
    const status = await call('mcp__files__read_text_file', { path: '/proc/self/status' });
    expect(status.stdout + status.stderr).toMatch(/denied: /);
    const run = await call('mcp__files__read_text_file', { path: `/proc/${process.pid}/environ` });
    expect(run.stdout + run.stderr).toMatch(/denied: .*process's files or environment/);
  }, 180_000);

  it("a default rule's `ls` of /proc/self/cwd through a link out of the workspace asks (denied here)", async () => {
    for (const command of ['ls -la /proc/self/cwd/up/outside', 'ls -R /proc/self/cwd', 'ls /dev/fd/../cwd']) {
      // The real command in its own process, started in the workspace (as `agenvoy chat` usually is).
      const run = await runBin(
        ['tools', 'call', 'run_command', JSON.stringify({ command, cwd: 'docs' }), '--workspace', cwd],
        { home, cwd, env: { HOME: userHome } },
      );
      expect(run.stdout + run.stderr, command).not.toContain('secret.txt');
      expect(run.code, command).not.toBe(0);
      expect(run.stdout + run.stderr, command).toMatch(/denied: /);
    }
  }, 120_000);

  it('a plain file is still read without asking, and ordinary system files are not process files', async () => {
    const plain = await call('mcp__files__read_text_file', { path: path.join(cwd, 'README.md') });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('plain words');
    const info = await call('mcp__files__read_text_file', { path: '/proc/version' });
    expect(info.code).toBe(0);
    expect(info.stdout).toMatch(/Linux/);
  }, 120_000);
});

describe("which /proc paths are a process's own", () => {
  it("a process's folder, anything past a `..` kept as written, but not the system's files or the standard streams", () => {
    for (const own of [
      '/proc/self/environ',
      '/proc/1/cwd/x',
      '/proc/thread-self/root',
      '/proc/net/../environ',
      '/proc/SELF/fd/3',
    ])
      expect(processLocation(own), own).not.toBeNull();
    for (const shared of [
      '/proc/version',
      '/proc/cpuinfo',
      '/proc/mounts',
      '/proc/net/tcp',
      '/proc/self/fd/0',
      '/proc/thread-self/fd/2',
      '/etc/passwd',
    ])
      expect(processLocation(shared), shared).toBeNull();
  });
});
