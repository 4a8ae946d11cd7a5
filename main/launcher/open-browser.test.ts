// Which opener `agenvoy web --open` uses, and that a failing one is reported, never fatal.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findOpener, openBrowser } from './open-browser';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-opener-'));
  dirs.push(dir);
  return dir;
}

function binWith(name: string, script: string): string {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, name), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return dir;
}

describe('findOpener', () => {
  it('uses xdg-open on Linux only with a display, open on macOS, none on Windows', () => {
    const bin = binWith('xdg-open', 'exit 0');
    expect(findOpener({ PATH: bin }, 'linux')).toEqual({
      reason: 'no display (DISPLAY and WAYLAND_DISPLAY are unset)',
    });
    expect(findOpener({ PATH: bin, DISPLAY: ':0' }, 'linux')).toEqual({
      command: path.join(bin, 'xdg-open'),
    });
    expect(findOpener({ PATH: bin, WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toEqual({
      command: path.join(bin, 'xdg-open'),
    });
    // Debian's own `open` (openvt or run-mailcap) is not a URL opener: only macOS uses that name.
    const mac = binWith('open', 'exit 0');
    expect(findOpener({ PATH: mac, DISPLAY: ':0' }, 'linux')).toEqual({
      reason: 'xdg-open is not installed',
    });
    expect(findOpener({ PATH: mac }, 'darwin')).toEqual({ command: path.join(mac, 'open') });
    expect(findOpener({ PATH: mac }, 'win32')).toHaveProperty('reason');
  });
});

describe('openBrowser', () => {
  it('passes the URL as one argument and reports an opener that exits with an error', async () => {
    const record = path.join(tempDir(), 'args');
    const bin = binWith('xdg-open', `printf '%s|' "$@" > '${record}'; exit 3`);
    const failures: string[] = [];
    const url = 'http://127.0.0.1:1/?token=abc';
    const outcome = await openBrowser(url, {
      env: { PATH: bin, DISPLAY: ':0' },
      platform: 'linux',
      failed: (why) => failures.push(why),
    });
    expect(outcome).toEqual({ opened: true, command: path.join(bin, 'xdg-open') });
    await expect.poll(() => failures).toEqual(['xdg-open exited with status 3']);
    expect(fs.readFileSync(record, 'utf8')).toBe(`${url}|`);
  });

  it('says why when the opener cannot start', async () => {
    const bin = binWith('xdg-open', 'exit 0');
    // Executable by mode, but its interpreter does not exist: exec fails, so spawn reports an error.
    fs.writeFileSync(path.join(bin, 'xdg-open'), '#!/nonexistent/interpreter\n', { mode: 0o755 });
    const outcome = await openBrowser('http://127.0.0.1:1/', {
      env: { PATH: bin, DISPLAY: ':0' },
      platform: 'linux',
    });
    expect(outcome).toMatchObject({ opened: false, reason: expect.stringContaining('could not start') });
  });
});
