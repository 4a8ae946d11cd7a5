// settings.json that is not a regular file (docs/robustness.md, "The app's own files"): a fifo, a link to /dev/zero,
// or a file of hundreds of MB. It is read synchronously on every turn and at start, so a fifo blocked the whole
// process for good waiting for a writer (`agenvoy chat` never ended, the desktop app froze), and /dev/zero was read
// until memory ran out. Each is now a problem naming the file, and the turn ends with it.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSettings } from './settings-file';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function place() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-home-'));
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-ws-'));
  dirs.push(home, cwd);
  fs.mkdirSync(path.join(home, 'desktop'));
  return { home, cwd, settings: path.join(home, 'desktop', 'settings.json') };
}

/** `agenvoy chat` through the real bin, stopped after `ms` if it has not ended. */
function chat(
  home: string,
  cwd: string,
  ms: number,
): Promise<{ code: number | null; stderr: string; ms: number }> {
  const bin = path.resolve(__dirname, '../../bin/agenvoy');
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, 'chat', 'hello', '--json', '--workspace', cwd],
      { cwd, env: { ...process.env, AGENVOY_HOME: home }, timeout: ms, killSignal: 'SIGKILL' },
      (error, _stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stderr, ms: Date.now() - started });
      },
    );
  });
}

describe('settings.json that is not a regular file', () => {
  it('a fifo: `agenvoy chat` ends at once instead of hanging, and the reading names the file', async () => {
    const { home, cwd, settings } = place();
    execFileSync('mkfifo', [settings]);
    const run = await chat(home, cwd, 45_000);
    // Killed at the timeout before (code null); now it ends as a settings.json without a provider does.
    expect(run.code).not.toBeNull();
    expect(run.code).not.toBe(0);
    expect(readSettings(settings).problem).toMatch(/settings\.json: cannot read: it is not a regular file/);
  }, 60_000);

  it('a link to /dev/zero is refused without reading it', () => {
    const { settings } = place();
    fs.symlinkSync('/dev/zero', settings);
    const reading = readSettings(settings);
    expect(reading.problem).toMatch(/settings\.json: cannot read: it is not a regular file/);
  });

  it('a file past the size bound is refused without reading it', () => {
    const { settings } = place();
    const handle = fs.openSync(settings, 'w');
    fs.ftruncateSync(handle, 600 * 1024 * 1024);
    fs.closeSync(handle);
    const reading = readSettings(settings);
    expect(reading.problem).toMatch(/settings\.json: cannot read: it is larger than 16 MiB/);
  });
});
