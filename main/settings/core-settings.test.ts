// settings.json as the calls read it (docs/hosts.md, "Fast start"): looked at once per batch of calls, where an
// unchanged file costs a stat, a changed one is read at once, and a file changed in the last moments is read again.
// These tests look at every batch (a recheck window of 0); core-settings-burst.test.ts tests the window.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STAMP_SETTLE_MS as SETTLE_MS } from '../core/file-stamp';
import { CoreSettings } from './core-settings';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-core-settings-'));
  file = path.join(dir, 'settings.json');
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

const limitOf = (bytes: number) => JSON.stringify({ limits: { toolArgumentsBytes: bytes } });
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 50));

/** What the next batch of calls sees. */
async function batch(settings: CoreSettings): Promise<number> {
  await settings.beforeCalls();
  return settings.argumentLimitBytes();
}

describe('CoreSettings', () => {
  it('looks at a settled unchanged file with one stat per batch and reads it once', async () => {
    fs.writeFileSync(file, limitOf(4096));
    const settings = new CoreSettings(file, 0);
    await settle();
    expect(await batch(settings)).toBe(4096);
    const reads = vi.spyOn(fs, 'readFileSync');
    const stats = vi.spyOn(fs, 'statSync');
    for (let i = 0; i < 20; i++) {
      expect(await batch(settings)).toBe(4096);
      // The calls of a batch read what the batch looked at: no stat of their own.
      for (let call = 0; call < 5; call++) {
        expect(settings.argumentLimitBytes()).toBe(4096);
        expect(settings.web()).toEqual(expect.any(Object));
      }
    }
    expect(reads.mock.calls.filter(([name]) => name === file)).toHaveLength(0);
    expect(stats.mock.calls.filter(([name]) => name === file)).toHaveLength(20);
  });

  it('sees a write of the same size made at once, and a replaced or removed file, from the next batch', async () => {
    fs.writeFileSync(file, limitOf(4096));
    const settings = new CoreSettings(file, 0);
    expect(await batch(settings)).toBe(4096);
    // Same size, within the same tick of the file clock: a fresh file is read again, never served from memory.
    fs.writeFileSync(file, limitOf(8192));
    expect(await batch(settings)).toBe(8192);

    await settle();
    expect(await batch(settings)).toBe(8192);
    const replacement = path.join(dir, 'settings.json.new');
    fs.writeFileSync(replacement, limitOf(2048));
    fs.renameSync(replacement, file);
    expect(await batch(settings)).toBe(2048);

    await settle();
    expect(await batch(settings)).toBe(2048);
    fs.rmSync(file);
    expect(await batch(settings)).toBe(1024 * 1024);
    expect(settings.web()).toEqual({});
  });

  it('falls back to the defaults for a damaged file, and recovers when it is fixed', async () => {
    fs.writeFileSync(file, limitOf(4096));
    const settings = new CoreSettings(file, 0);
    await settle();
    expect(await batch(settings)).toBe(4096);
    fs.writeFileSync(file, '{"limits": ');
    expect(await batch(settings)).toBe(1024 * 1024);
    await settle();
    expect(await batch(settings)).toBe(1024 * 1024);
    fs.writeFileSync(file, limitOf(3000));
    expect(await batch(settings)).toBe(3000);
  });

  it('uses the defaults, and loads no parser, while there is no file', async () => {
    const settings = new CoreSettings(file, 0);
    expect(await batch(settings)).toBe(1024 * 1024);
    expect(settings.web()).toEqual({});
    fs.writeFileSync(file, limitOf(5000));
    expect(await batch(settings)).toBe(5000);
  });

  it('gives a reader outside any batch (the sandbox proxy) the web block as the file is now', async () => {
    fs.writeFileSync(file, JSON.stringify({ web: { allowPrivateNetwork: true } }));
    const settings = new CoreSettings(file, 0);
    await settings.beforeCalls();
    await settle();
    expect(settings.webNow()).toMatchObject({ allowPrivateNetwork: true });
    // Tightened while a long command runs, with no batch in between: its next connection sees it.
    fs.writeFileSync(file, JSON.stringify({ web: { allowPrivateNetwork: false } }));
    expect(settings.webNow()).toMatchObject({ allowPrivateNetwork: false });
    fs.rmSync(file);
    expect(settings.webNow()).toEqual({});
  });
});
