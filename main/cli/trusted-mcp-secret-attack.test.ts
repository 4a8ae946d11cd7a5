// A file-reading MCP server the person trusts (`"trust": true` in mcp.json), whose read-only tools therefore run
// without asking, given a secret file by a hostile model: through `agenvoy tools call`, with nobody at the terminal.
// Before, an alwaysAllow call never met the gate, so `read_text_file ~/.ssh/id_rsa` ran and printed the key; now a
// sensitive target in its arguments is decided like any call's (docs/security.md, "Nothing skips the gate"): denied
// here, since nobody can be asked, and the server reads nothing; so is a relative name of the app's own folder, where
// the server runs (`mcp.json` read as it is). A plain file is still read without asking.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './testing/cli-harness';

const SERVER = path.resolve(__dirname, '../adapters/mcp/fixtures/file-reader-server.mjs');
const CANARY = 'CANARY-7c1e-PRIVATE';

let root: string;
let home: string;
let userHome: string;
let cwd: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-trusted-mcp-')));
  home = path.join(root, 'agenvoy');
  userHome = path.join(root, 'home');
  cwd = path.join(root, 'ws');
  const put = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  put(path.join(userHome, '.ssh', 'id_rsa'), `-----BEGIN OPENSSH PRIVATE KEY-----\n${CANARY}\n`);
  put(path.join(userHome, '.aws', 'credentials'), `aws_secret_access_key=${CANARY}\n`);
  put(path.join(cwd, '.env'), `API_KEY=${CANARY}\n`);
  put(path.join(cwd, 'certs', 'server.key'), `-----BEGIN PRIVATE KEY-----\n${CANARY}\n`);
  put(path.join(cwd, 'README.md'), 'plain words\n');
  fs.symlinkSync(path.join(userHome, '.ssh', 'id_rsa'), path.join(cwd, 'notes.txt'));
  put(
    path.join(home, 'mcp.json'),
    // A token written into mcp.json as it is, as many people do: the server runs in this folder.
    JSON.stringify({
      servers: {
        files: { command: process.execPath, args: [SERVER], trust: true, env: { API_TOKEN: CANARY } },
      },
    }),
  );
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const call = (tool: string, args: unknown) =>
  runCli(['tools', 'call', `mcp__files__${tool}`, JSON.stringify(args), '--workspace', cwd], {
    home,
    cwd,
    env: { HOME: userHome },
  });

describe("a trusted server's read-only tools given a secret file", () => {
  it('are decided like any call and denied with nobody to ask; the server reads nothing', async () => {
    const cases: Array<[string, unknown]> = [
      ['read_text_file', { path: '~/.ssh/id_rsa' }],
      ['read_text_file', { path: path.join(userHome, '.ssh', 'id_rsa') }],
      ['read_text_file', { path: `${cwd}/../home/.aws/credentials` }],
      ['read_text_file', { path: path.join(cwd, '.env') }],
      ['read_text_file', { path: path.join(cwd, 'certs', 'server.key') }],
      ['read_text_file', { path: path.join(cwd, 'notes.txt') }],
      ['read_many_files', { paths: [path.join(cwd, 'README.md'), '~/.aws/credentials'] }],
      // Relative names are read from the server's own folder, $AGENVOY_HOME: mcp.json, the chats, the rules.
      ['read_text_file', { path: 'mcp.json' }],
      ['read_text_file', { path: './mcp.json' }],
      ['read_many_files', { paths: ['README.md', 'mcp.json'] }],
    ];
    for (const [tool, args] of cases) {
      const run = await call(tool, args);
      const what = `${tool} ${JSON.stringify(args)}`;
      expect(run.code, what).not.toBe(0);
      expect(run.stdout + run.stderr, what).toMatch(/denied: .*needs approval/);
      expect(run.stdout + run.stderr, what).not.toContain(CANARY);
    }
  }, 120_000);

  it('still read a plain file without asking', async () => {
    const run = await call('read_text_file', { path: path.join(cwd, 'README.md') });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('plain words');
  }, 60_000);
});
