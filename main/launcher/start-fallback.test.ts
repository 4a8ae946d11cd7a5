// `npm start` where no Electron binary exists (this machine, or any with ELECTRON_OVERRIDE_DIST_PATH at an empty
// folder): build/start.ts in a real child process starts browser mode, prints the URL, keeps serving, and calls the
// opener (a fake xdg-open on PATH that records its arguments) only when there is a display.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRenderer, projectRoot } from '../web/renderer-build';

const ROOT = projectRoot();
let dir: string;
let fakeBin: string;
let emptyBin: string;
const opened = () => path.join(dir, 'opened.txt');

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-start-'));
  fakeBin = path.join(dir, 'bin');
  emptyBin = path.join(dir, 'empty-bin');
  fs.mkdirSync(fakeBin);
  fs.mkdirSync(emptyBin);
  fs.mkdirSync(path.join(dir, 'no-electron'));
  fs.writeFileSync(path.join(fakeBin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" >> '${opened()}'\n`, {
    mode: 0o755,
  });
  // Built once here, so the children below do not each run vite.
  await ensureRenderer();
}, 120_000);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

// Runs `npm start`'s script with a clean environment plus `extra`; resolves once it said whether it opened a browser.
async function start(extra: NodeJS.ProcessEnv): Promise<Started> {
  const home = fs.mkdtempSync(path.join(dir, 'home-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AGENVOY_HOME: path.join(home, 'agenvoy'),
    HOME: home,
    ELECTRON_OVERRIDE_DIST_PATH: path.join(dir, 'no-electron'),
    ...extra,
  };
  // No keychain and no display unless a test gives one (docs/hosts.md, "Building and testing on these machines").
  for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY'])
    if (!(name in extra)) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('build', 'start.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`no answer in 45 s:\n${stdout}${stderr}`)), 45_000);
    const check = () => {
      if (/opening it in your default browser|not opening a browser/.test(stderr)) finish();
    };
    const exited = (code: number | null) => finish(new Error(`exited (${code}):\n${stdout}${stderr}`));
    const finish = (error?: Error) => {
      clearTimeout(timer);
      child.stderr?.off('data', check);
      child.off('exit', exited);
      if (error) reject(error);
      else resolve();
    };
    child.stderr?.on('data', check);
    child.once('exit', exited);
  });
  const url = /open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(stdout)?.[1] ?? '';
  return { child, url, stderr: () => stderr };
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

describe.skipIf(process.platform !== 'linux')('npm start without an Electron binary', () => {
  it('starts browser mode, prints the URL, opens it where there is a display, and keeps serving', async () => {
    const { child, url, stderr } = await start({ DISPLAY: ':97', PATH: `${fakeBin}:${process.env.PATH}` });
    try {
      expect(stderr()).toMatch(/^agenvoy: no desktop app here \(.+\); starting browser mode instead/m);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
      expect(stderr()).toContain(`opening it in your default browser (${path.join(fakeBin, 'xdg-open')})`);
      // The opener (whose command line other users can read) gets a page only this user can read, which leads
      // to a one-time launch link, never the token (main/launcher/launch-link-attack.test.ts).
      await expect
        .poll(() => fs.existsSync(opened()) && fs.readFileSync(opened(), 'utf8'))
        .toMatch(/^file:\/\/.*\/open\.html\n$/);
      const launchPage = fileURLToPath(fs.readFileSync(opened(), 'utf8').trim());
      expect(fs.statSync(launchPage).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(launchPage)).mode & 0o777).toBe(0o700);
      const launch = /url=([^"]+)"/.exec(fs.readFileSync(launchPage, 'utf8'))?.[1] ?? '';
      const token = new URL(url).searchParams.get('token') ?? '';
      expect(launch).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?launch=[A-Za-z0-9_-]{43}$/);
      expect(launch).not.toContain(token);
      // The browser follows it to the page; a second use (someone who read it) is refused.
      const page = await fetch(launch);
      expect(page.status).toBe(200);
      expect(page.url).toBe(url);
      expect(await page.text()).toContain('<html');
      const again = await fetch(launch, { redirect: 'manual' });
      expect(again.status).toBe(403);
      expect(await again.text()).toContain('this launch link was used or has expired');
      expect((await fetch(url)).status).toBe(200);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  }, 60_000);

  it('stops cleanly when its terminal closes (SIGHUP): exit status 0, the launch page removed', async () => {
    fs.rmSync(opened(), { force: true });
    const { child } = await start({ DISPLAY: ':97', PATH: `${fakeBin}:${process.env.PATH}` });
    await expect.poll(() => fs.existsSync(opened())).toBe(true);
    const launchPage = fileURLToPath(fs.readFileSync(opened(), 'utf8').trim());
    expect(fs.existsSync(launchPage)).toBe(true);
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    child.kill('SIGHUP');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    expect(await exited).toEqual({ code: 0, signal: null });
    clearTimeout(timer);
    expect(fs.existsSync(launchPage)).toBe(false);
  }, 60_000);

  it('opens nothing without a display, and still serves', async () => {
    fs.rmSync(opened(), { force: true });
    const { child, url, stderr } = await start({ PATH: `${fakeBin}:${process.env.PATH}` });
    try {
      expect(stderr()).toContain('not opening a browser: no display (DISPLAY and WAYLAND_DISPLAY are unset)');
      expect((await fetch(url)).status).toBe(200);
      expect(fs.existsSync(opened())).toBe(false);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  }, 60_000);

  it('uses a Wayland display too; an opener that is not installed is said, not fatal', async () => {
    const { child, url, stderr } = await start({ WAYLAND_DISPLAY: 'wayland-9', PATH: emptyBin });
    try {
      expect(stderr()).toContain('not opening a browser: xdg-open is not installed; open the URL above');
      expect((await fetch(url)).status).toBe(200);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  }, 60_000);
});
