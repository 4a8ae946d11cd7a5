// The store where keytar cannot be loaded (not installed: its native build needs libsecret headers): through
// secret-tool against a real Secret Service, else the 0600 file, and the status says which (docs/secrets.md).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../core/redactor';
import { detectKeychain, PROBE_TIMEOUT_MS } from './detect-backend';
import { loadKeytar } from './keychain';
import { SECRET_SERVICE } from './secret-tool';
import { SecretStore } from './secret-store';
import type { PrivateBus } from './testing/private-bus';
import { startKeyringSession } from './testing/keyring-session';

const homes: string[] = [];
afterAll(() => {
  for (const home of homes) fs.rmSync(home, { recursive: true, force: true });
});

// What requiring keytar throws where npm left it out after its build failed.
function keytarMissing(): never {
  throw new Error("Cannot find module 'keytar'\nRequire stack:\n- main/secrets/keychain.ts");
}

function newStore(env: NodeJS.ProcessEnv = {}) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-home-'));
  homes.push(home);
  const redactor = new Redactor();
  const secretsFile = path.join(home, '.secrets');
  const store = new SecretStore({ secretsFile, redactor, env, loadKeytar: keytarMissing });
  return { store, redactor, secretsFile };
}

function secretTool(args: string[], input?: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn('secret-tool', args, { stdio: ['pipe', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout }));
    child.stdin.end(input);
  });
}

describe('without keytar and without a Secret Service', () => {
  const saved = {
    bus: process.env.DBUS_SESSION_BUS_ADDRESS,
    display: process.env.DISPLAY,
    runtime: process.env.XDG_RUNTIME_DIR,
  };
  beforeAll(() => {
    // Nothing for secret-tool to connect to or autolaunch (GLib also tries $XDG_RUNTIME_DIR/bus).
    const run = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-run-'));
    homes.push(run);
    delete process.env.DBUS_SESSION_BUS_ADDRESS;
    delete process.env.DISPLAY;
    process.env.XDG_RUNTIME_DIR = run;
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
  });

  it('falls back to the 0600 file and says that neither keytar nor secret-tool could be used', async () => {
    const { store, secretsFile } = newStore();
    const started = performance.now();
    const status = await store.status();
    expect(performance.now() - started).toBeLessThan(PROBE_TIMEOUT_MS);
    expect(status).toMatchObject({ backend: 'file', via: null, file: secretsFile });
    expect(status.reason).toMatch(
      /^no usable keychain \(keytar could not be loaded \(Cannot find module 'keytar'\); secret-tool failed \(.+\)\); secrets are kept in .*\.secrets \(mode 0600\)$/,
    );
    await expect(store.set('NO_KEYTAR_TOKEN', 'file-value-1')).resolves.toBe('file');
    expect(fs.statSync(secretsFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(secretsFile, 'utf8')).toBe('NO_KEYTAR_TOKEN=file-value-1\n');
    expect(await store.get('NO_KEYTAR_TOKEN')).toBe('file-value-1');
    console.info(`without keytar or a Secret Service: ${status.reason}`);
  });

  it('names both missing pieces where secret-tool is not installed either', async () => {
    const detection = await detectKeychain({ loadKeytar: keytarMissing, secretTool: null });
    expect(detection).toMatchObject({
      usable: false,
      reason: "keytar could not be loaded (Cannot find module 'keytar'); secret-tool is not installed",
    });
  });
});

describe('without keytar, against a real Secret Service', () => {
  let session: PrivateBus;
  beforeAll(async () => {
    session = await startKeyringSession();
  });
  afterAll(async () => {
    await session?.stop();
  });

  it('uses the keychain through secret-tool and says why not keytar', async () => {
    const { store } = newStore();
    const status = await store.status();
    // A silent fall-back to the file must fail this test.
    expect(status).toMatchObject({ backend: 'keychain', via: 'secret-tool', interop: 'secret-tool' });
    expect(status.reason).toMatch(
      /^the OS keychain answered secret-tool's probe write, read and delete in \d+ ms; secret-tool is used because keytar could not be loaded \(Cannot find module 'keytar'\)$/,
    );
    expect(status.probeMs).toBeLessThan(PROBE_TIMEOUT_MS);
    console.info(`without keytar: ${status.reason}`);
  });

  it('writes, reads, lists and deletes through secret-tool, never the file; keytar sees the same item', async () => {
    const { store, secretsFile, redactor } = newStore();
    await expect(store.set('TOOL_TOKEN', 'tool-value-1')).resolves.toBe('keychain');
    expect(redactor.redact('x tool-value-1 y')).toBe('x [redacted:TOOL_TOKEN] y');
    expect(fs.existsSync(secretsFile)).toBe(false);
    expect(await secretTool(['lookup', 'service', SECRET_SERVICE, 'account', 'TOOL_TOKEN'])).toEqual({
      code: 0,
      stdout: 'tool-value-1',
    });
    // The item is the one keytar writes (its schema marker included), so keytar, once installed, finds it.
    expect(await loadKeytar().getPassword(SECRET_SERVICE, 'TOOL_TOKEN')).toBe('tool-value-1');

    await store.set('TOOL_TOKEN', 'tool-value-2');
    const reader = newStore();
    expect(await reader.store.get('TOOL_TOKEN')).toBe('tool-value-2');
    expect(reader.redactor.redact('tool-value-2')).toBe('[redacted:TOOL_TOKEN]');
    const search = await secretTool(['search', '--all', 'service', SECRET_SERVICE, 'account', 'TOOL_TOKEN']);
    expect(search.stdout.match(/^secret = /gm)).toHaveLength(1);

    const listed = await store.list();
    expect(listed).toContainEqual({ key: 'TOOL_TOKEN', locations: ['keychain'] });
    expect(listed.some((entry) => entry.key.startsWith('agenvoy-probe-'))).toBe(false);
    expect(JSON.stringify(listed)).not.toContain('tool-value');

    await expect(store.delete('TOOL_TOKEN')).resolves.toEqual(['keychain']);
    expect((await secretTool(['lookup', 'service', SECRET_SERVICE, 'account', 'TOOL_TOKEN'])).code).toBe(1);
    expect(await store.get('TOOL_TOKEN')).toBeUndefined();
  });

  it('prefers keytar when it loads and works; uses secret-tool when keytar loads but fails', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-home-'));
    homes.push(home);
    const secretsFile = path.join(home, '.secrets');
    const withKeytar = new SecretStore({ secretsFile, redactor: new Redactor(), env: {} });
    expect(await withKeytar.status()).toMatchObject({ backend: 'keychain', via: 'keytar' });
    const broken = () => {
      const fail = () => Promise.reject(new Error('keytar native call failed'));
      return { getPassword: fail, setPassword: fail, deletePassword: fail, findCredentials: fail };
    };
    const status = await new SecretStore({
      secretsFile,
      redactor: new Redactor(),
      env: {},
      loadKeytar: broken,
    }).status();
    expect(status).toMatchObject({ backend: 'keychain', via: 'secret-tool' });
    expect(status.reason).toMatch(/secret-tool is used because keytar failed \(keytar native call failed\)$/);
  });

  it('finds and replaces an item another program stored with plain `secret-tool store`', async () => {
    const stored = await secretTool(
      ['store', '--label', 'other', 'service', SECRET_SERVICE, 'account', 'CLI_TOKEN'],
      'cli-value-1\n',
    );
    expect(stored.code).toBe(0);
    const { store } = newStore({ CLI_TOKEN: 'env-value' });
    expect(await store.get('CLI_TOKEN')).toBe('cli-value-1');
    await store.set('CLI_TOKEN', 'our-value-1');
    const search = await secretTool(['search', '--all', 'service', SECRET_SERVICE, 'account', 'CLI_TOKEN']);
    expect(search.stdout.match(/^secret = /gm)).toHaveLength(1);
    expect(search.stdout).toContain('secret = our-value-1');
    await store.delete('CLI_TOKEN');
    expect(await store.get('CLI_TOKEN')).toBe('env-value');
  });
});
