// settings.json read per call through a kept reading (docs/hosts.md, "Fast start"): an unchanged file costs a stat, a
// changed one is read at once, and a file changed in the last moments is never served from the kept reading.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CoreSettings, SETTLE_MS } from './core-settings';

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

describe('CoreSettings', () => {
  it('reads an unchanged settled file once, however many calls ask', async () => {
    fs.writeFileSync(file, limitOf(4096));
    const settings = new CoreSettings(file);
    await settings.beforeCalls();
    await settle();
    const reads = vi.spyOn(fs, 'readFileSync');
    for (let i = 0; i < 50; i++) {
      expect(settings.argumentLimitBytes()).toBe(4096);
      expect(settings.web()).toEqual(expect.any(Object));
    }
    expect(reads.mock.calls.filter(([name]) => name === file)).toHaveLength(1);
  });

  it('sees a write of the same size made at once, and a replaced or removed file', async () => {
    fs.writeFileSync(file, limitOf(4096));
    const settings = new CoreSettings(file);
    await settings.beforeCalls();
    expect(settings.argumentLimitBytes()).toBe(4096);
    // Same size, within the same tick of the file clock: the fresh file is read again, never served from memory.
    fs.writeFileSync(file, limitOf(8192));
    expect(settings.argumentLimitBytes()).toBe(8192);

    await settle();
    expect(settings.argumentLimitBytes()).toBe(8192);
    const replacement = path.join(dir, 'settings.json.new');
    fs.writeFileSync(replacement, limitOf(2048));
    fs.renameSync(replacement, file);
    expect(settings.argumentLimitBytes()).toBe(2048);

    await settle();
    expect(settings.argumentLimitBytes()).toBe(2048);
    fs.rmSync(file);
    expect(settings.argumentLimitBytes()).toBe(1024 * 1024);
    expect(settings.web()).toEqual({});
  });

  it('falls back to the defaults for a damaged file, and recovers when it is fixed', async () => {
    fs.writeFileSync(file, limitOf(4096));
    const settings = new CoreSettings(file);
    await settings.beforeCalls();
    await settle();
    expect(settings.argumentLimitBytes()).toBe(4096);
    fs.writeFileSync(file, '{"limits": ');
    expect(settings.argumentLimitBytes()).toBe(1024 * 1024);
    await settle();
    expect(settings.argumentLimitBytes()).toBe(1024 * 1024);
    fs.writeFileSync(file, limitOf(3000));
    expect(settings.argumentLimitBytes()).toBe(3000);
  });
});
