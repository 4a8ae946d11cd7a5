// A burst of calls looks at settings.json once per recheck window (docs/hosts.md, "Fast start"): an edit by hand or by
// another process applies from the first batch that begins a window after it, a save by this process at once, and a
// file changed in the last moments is looked at by every batch.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STAMP_SETTLE_MS } from '../core/file-stamp';
import { CoreSettings, RECHECK_MS } from './core-settings';
import { saveSettings, settingsPath } from './settings';

let home: string;
let file: string;
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-core-settings-burst-'));
  file = settingsPath(home);
  fs.mkdirSync(path.dirname(file), { recursive: true });
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(home, { recursive: true, force: true });
});

const limitOf = (bytes: number) => JSON.stringify({ limits: { toolArgumentsBytes: bytes } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const settle = () => sleep(STAMP_SETTLE_MS + 50);
// A window that a test's few synchronous steps cannot outlast, even on a loaded machine.
const WIDE_MS = 60_000;

async function batch(settings: CoreSettings): Promise<number> {
  await settings.beforeCalls();
  return settings.argumentLimitBytes();
}

const looksAt = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.filter(([name]) => name === file).length;

describe('CoreSettings recheck window', () => {
  it('looks at a settled file once for a burst of batches, and again once the window has passed', async () => {
    expect(RECHECK_MS).toBeGreaterThan(0);
    expect(RECHECK_MS).toBeLessThanOrEqual(50);
    fs.writeFileSync(file, limitOf(4096));
    await settle();
    const settings = new CoreSettings(file, WIDE_MS);
    expect(await batch(settings)).toBe(4096);
    const stats = vi.spyOn(fs, 'statSync');
    for (let i = 0; i < 200; i++) expect(await batch(settings)).toBe(4096);
    expect(looksAt(stats)).toBe(0);

    const short = new CoreSettings(file, 30);
    expect(await batch(short)).toBe(4096);
    const before = looksAt(stats);
    await sleep(60);
    expect(await batch(short)).toBe(4096);
    expect(looksAt(stats)).toBe(before + 1);
  });

  it('applies an edit by hand from the first batch after the window, never later', async () => {
    fs.writeFileSync(file, limitOf(4096));
    await settle();
    const settings = new CoreSettings(file, 40);
    expect(await batch(settings)).toBe(4096);
    const replacement = `${file}.new`;
    fs.writeFileSync(replacement, limitOf(2048));
    fs.renameSync(replacement, file);
    await sleep(80);
    expect(await batch(settings)).toBe(2048);
  });

  it('applies a save by this process at once, inside the window', async () => {
    fs.writeFileSync(file, limitOf(4096));
    await settle();
    const settings = new CoreSettings(file, WIDE_MS);
    expect(await batch(settings)).toBe(4096);
    await saveSettings({ limits: { toolArgumentsBytes: 3000 } } as never, { home });
    expect(await batch(settings)).toBe(3000);
  });

  it('looks at a file changed in the last moments on every batch, window or not', async () => {
    fs.writeFileSync(file, limitOf(4096));
    const settings = new CoreSettings(file, WIDE_MS);
    expect(await batch(settings)).toBe(4096);
    // Same size, same tick of the file clock: only a fresh look tells the two apart.
    fs.writeFileSync(file, limitOf(8192));
    expect(await batch(settings)).toBe(8192);
    fs.writeFileSync(file, limitOf(1234));
    expect(await batch(settings)).toBe(1234);
  });

  it('while there is no file, checks for one once per window, and batches racing the parser load all wait for it', async () => {
    const settings = new CoreSettings(file, WIDE_MS);
    const exists = vi.spyOn(fs, 'existsSync');
    for (let i = 0; i < 50; i++) expect(await batch(settings)).toBe(1024 * 1024);
    expect(looksAt(exists)).toBe(1);

    const fresh = new CoreSettings(file, WIDE_MS);
    fs.writeFileSync(file, limitOf(5000));
    // Both begin before the parser has loaded: neither may take the defaults for a file that exists.
    expect(await Promise.all([batch(fresh), batch(fresh), batch(fresh)])).toEqual([5000, 5000, 5000]);
  });
});
