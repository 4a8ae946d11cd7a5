// No D-Bus session at all: the store must notice fast, fall back to the 0600 file, and say so.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../core/redactor';
import { PROBE_TIMEOUT_MS } from './detect-backend';
import { SecretStore } from './secret-store';

// Before keytar is first used in this process: nothing to connect to and nothing to autolaunch.
const saved = {
  bus: process.env.DBUS_SESSION_BUS_ADDRESS,
  display: process.env.DISPLAY,
  runtime: process.env.XDG_RUNTIME_DIR,
};
let home: string;

beforeAll(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-home-'));
  delete process.env.DBUS_SESSION_BUS_ADDRESS;
  delete process.env.DISPLAY;
  // GLib also tries $XDG_RUNTIME_DIR/bus: point it at an empty directory.
  fs.mkdirSync(path.join(home, 'run'), { mode: 0o700 });
  process.env.XDG_RUNTIME_DIR = path.join(home, 'run');
});

afterAll(() => {
  for (const [name, value] of [
    ['DBUS_SESSION_BUS_ADDRESS', saved.bus],
    ['DISPLAY', saved.display],
    ['XDG_RUNTIME_DIR', saved.runtime],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  fs.rmSync(home, { recursive: true, force: true });
});

function newStore(env: NodeJS.ProcessEnv = {}) {
  const dir = fs.mkdtempSync(path.join(home, 'agenvoy-'));
  const secretsFile = path.join(dir, '.secrets');
  const redactor = new Redactor();
  return { store: new SecretStore({ secretsFile, redactor, env }), secretsFile, dir, redactor };
}

describe('SecretStore without a D-Bus session', () => {
  it('falls back to the file quickly and says why', async () => {
    const { store, secretsFile } = newStore();
    const started = performance.now();
    const status = await store.status();
    const elapsed = performance.now() - started;
    expect(status.backend).toBe('file');
    expect(status.file).toBe(secretsFile);
    expect(status.reason).toMatch(/no usable keychain \(.+\); secrets are kept in .*\.secrets \(mode 0600\)/);
    expect(elapsed).toBeLessThan(PROBE_TIMEOUT_MS);
    console.info(`fallback detected in ${Math.round(elapsed)} ms: ${status.reason}`);
  });

  it('writes the file atomically with mode 0600, keeping other lines', async () => {
    const { store, secretsFile, dir } = newStore();
    fs.writeFileSync(secretsFile, '# my keys\nOTHER_KEY=other-value\n', { mode: 0o644 });
    await expect(store.set('FILE_TOKEN', 'file-value-1')).resolves.toBe('file');
    await store.set('FILE_TOKEN', 'file-value-2');
    expect(fs.statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(secretsFile, 'utf8')).toBe(
      '# my keys\nOTHER_KEY=other-value\nFILE_TOKEN=file-value-2\n',
    );
    expect(fs.readdirSync(dir)).toEqual(['.secrets']);
    expect(await store.get('FILE_TOKEN')).toBe('file-value-2');
    expect(await store.list()).toEqual([
      { key: 'FILE_TOKEN', locations: ['file'] },
      { key: 'OTHER_KEY', locations: ['file'] },
    ]);
    await expect(store.delete('FILE_TOKEN')).resolves.toEqual(['file']);
    expect(fs.readFileSync(secretsFile, 'utf8')).toBe('# my keys\nOTHER_KEY=other-value\n');
  });

  it('creates the file (and its folder) 0600 when there is none, and refuses values with line breaks', async () => {
    const { store, dir } = newStore();
    const nested = new SecretStore({
      secretsFile: path.join(dir, 'new-home', '.secrets'),
      redactor: new Redactor(),
      env: {},
    });
    await nested.set('NEW_TOKEN', 'new-value-1');
    expect(fs.statSync(path.join(dir, 'new-home', '.secrets')).mode & 0o777).toBe(0o600);
    await expect(store.set('MULTI_LINE', 'a\nb')).rejects.toThrow(/line break/);
  });

  it('falls back to an environment variable of the same name, never copying into process.env', async () => {
    const { store, secretsFile, redactor } = newStore({
      ENV_TOKEN: 'env-value-1',
      BOTH_TOKEN: 'env-value-2',
    });
    fs.writeFileSync(secretsFile, 'BOTH_TOKEN=file-value-3\n', { mode: 0o600 });
    expect(await store.get('ENV_TOKEN')).toBe('env-value-1');
    expect(await store.get('BOTH_TOKEN')).toBe('file-value-3');
    expect(await store.get('NOWHERE_TOKEN')).toBeUndefined();
    expect(redactor.redact('env-value-1')).toBe('[redacted:ENV_TOKEN]');
    await store.set('SET_TOKEN', 'set-value-1');
    expect(process.env.ENV_TOKEN).toBeUndefined();
    expect(process.env.SET_TOKEN).toBeUndefined();
  });

  it('uses no file on macOS and Windows: only the environment remains', async () => {
    const { secretsFile } = newStore();
    fs.writeFileSync(secretsFile, 'MAC_TOKEN=file-value\n', { mode: 0o600 });
    const store = new SecretStore({
      secretsFile,
      redactor: new Redactor(),
      env: { MAC_TOKEN: 'env-value' },
      platform: 'darwin',
    });
    expect((await store.status()).backend).toBe('none');
    expect(await store.get('MAC_TOKEN')).toBe('env-value');
    await expect(store.set('MAC_TOKEN', 'x-value')).rejects.toThrow(
      /cannot store MAC_TOKEN: no usable keychain/,
    );
  });
});
