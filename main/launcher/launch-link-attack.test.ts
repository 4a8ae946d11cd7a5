// Another local user against `agenvoy web --open`: the browser opener's command line is readable by every user
// (/proc/PID/cmdline), and a browser takes a while to start. A user watching the process list reads what the opener
// was given and uses it before the browser does; whatever that is must not lead to the session's token.
// The attacker really is another user (`nobody`, through setpriv), so this needs root, as `.ci/run` has.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../cli/io';
import { fakeRendererDir } from '../web/testing/web-fixture';
import { webCommand } from './web-command';

const asRoot = process.platform === 'linux' && process.getuid?.() === 0 && fs.existsSync('/usr/bin/setpriv');

// Run as `nobody`: watches the process list for the opener, then uses what it was given, as fast as it can.
const ATTACKER = `
const fs = require('node:fs');
const until = Date.now() + 15000;
function opener() {
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\\d+$/.test(pid)) continue;
    let argv;
    try { argv = fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0'); } catch { continue; }
    const at = argv.findIndex((word) => word.endsWith('/xdg-open'));
    if (at !== -1 && argv[at + 1]) return argv[at + 1];
  }
  return null;
}
async function main() {
  let given = null;
  while (!given && Date.now() < until) {
    given = opener();
    if (!given) await new Promise((r) => setTimeout(r, 2));
  }
  const seen = { uid: process.getuid(), given };
  if (given && given.startsWith('http')) {
    const answer = await fetch(given, { redirect: 'manual' });
    seen.status = answer.status;
    seen.location = answer.headers.get('location');
  } else if (given && given.startsWith('file:')) {
    try { seen.file = fs.readFileSync(new URL(given), 'utf8'); } catch (error) { seen.error = error.code; }
  }
  console.log(JSON.stringify(seen));
}
main();
`;

let dir: string;
// The other user's script sits where that user can read it (the tests' own temp folder is private).
let shared: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-launch-attack-'));
  shared = fs.mkdtempSync('/tmp/agenvoy-launch-attacker-');
  fs.chmodSync(shared, 0o755);
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(shared, { recursive: true, force: true });
});

function io(home: string, env: NodeJS.ProcessEnv): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    stdin: process.stdin,
    interactive: false,
    env: { ...process.env, AGENVOY_HOME: home, ...env },
    cwd: home,
  };
}

// What the browser does with what the opener handed it: a page (a launch file's refresh) or an address.
async function browse(given: string): Promise<Response> {
  if (!given.startsWith('file:')) return fetch(given);
  const html = fs.readFileSync(fileURLToPath(given), 'utf8');
  const target = /<meta http-equiv="refresh" content="0; url=([^"]+)">/.exec(html)?.[1] ?? '';
  return fetch(target.replace(/&amp;/g, '&'));
}

describe.skipIf(!asRoot)('a one-time launch link read by another local user', () => {
  it('gives the user who reads the opener command line no way to the token, and still opens the app', async () => {
    const home = fs.mkdtempSync(path.join(dir, 'home-'));
    const bin = path.join(dir, 'bin');
    const opened = path.join(dir, 'opened.txt');
    fs.mkdirSync(bin, { recursive: true });
    // A browser that takes a second to start, as real ones do, then records what it was asked to open.
    fs.writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nsleep 1\nprintf '%s' "$1" > '${opened}'\n`, {
      mode: 0o755,
    });
    const attackerScript = path.join(shared, 'attacker.cjs');
    fs.writeFileSync(attackerScript, ATTACKER, { mode: 0o644 });
    const attacker = spawn(
      '/usr/bin/setpriv',
      ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, attackerScript],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let report = '';
    let complaint = '';
    attacker.stdout.on('data', (chunk: Buffer) => (report += chunk.toString()));
    attacker.stderr.on('data', (chunk: Buffer) => (complaint += chunk.toString()));
    const attacked = new Promise<void>((resolve) => attacker.once('exit', () => resolve()));

    // Temp files go where every user can look (the tests' own temp folder is private, which would hide them anyway).
    const savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = shared;
    const stop = new AbortController();
    let url = '';
    const cli = io(home, { DISPLAY: ':97', PATH: `${bin}:${process.env.PATH}` });
    const done = webCommand(['--open', '--workspace', home], cli, {
      rendererDir: fakeRendererDir(),
      stop: stop.signal,
      started: (printed) => (url = printed),
    });
    try {
      await attacked;
      expect(complaint).toBe('');
      const seen = JSON.parse(report) as Record<string, unknown>;
      const token = new URL(url).searchParams.get('token') ?? '';
      expect(seen.uid).toBe(65534);
      expect(seen.given).toBeTruthy();
      // Nothing the other user could read or fetch holds the token.
      expect(token).toHaveLength(43);
      expect(JSON.stringify(seen)).not.toContain(token);
      expect(seen.status).not.toBe(303);
      // The person's browser, a second later, still reaches the app.
      await expect
        .poll(() => fs.existsSync(opened) && fs.readFileSync(opened, 'utf8'), { timeout: 10_000 })
        .toBeTruthy();
      const given = fs.readFileSync(opened, 'utf8');
      expect(given).toBe(seen.given);
      const page = await browse(given);
      expect(page.status).toBe(200);
      expect(page.url).toBe(url);
    } finally {
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
      attacker.kill();
      stop.abort();
      await done;
    }
  }, 40_000);
});
