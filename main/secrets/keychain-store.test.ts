// The store against a REAL keychain: a private bus with an unlocked gnome-keyring-daemon (see testing/).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../core/redactor';
import { PROBE_TIMEOUT_MS } from './detect-backend';
import { loadKeytar } from './keychain';
import { SECRET_SERVICE } from './secret-tool';
import { SecretStore } from './secret-store';
import type { PrivateBus } from './testing/private-bus';
import { startKeyringSession } from './testing/keyring-session';

let session: PrivateBus;
const homes: string[] = [];

beforeAll(async () => {
  session = await startKeyringSession();
});

afterAll(async () => {
  await session?.stop();
  for (const home of homes) fs.rmSync(home, { recursive: true, force: true });
});

function newStore(env: NodeJS.ProcessEnv = {}) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-home-'));
  homes.push(home);
  const redactor = new Redactor();
  const secretsFile = path.join(home, '.secrets');
  return { store: new SecretStore({ secretsFile, redactor, env }), redactor, secretsFile };
}

describe('SecretStore on a real keychain', () => {
  it('detects the keychain as the active backend, within the probe bound', async () => {
    const { store } = newStore();
    const started = performance.now();
    const status = await store.status();
    const elapsed = performance.now() - started;
    // A silent fall-back to the file must fail this test.
    expect(status.backend).toBe('keychain');
    expect(status.interop).toBe('secret-tool');
    expect(status.reason).toMatch(/keychain answered/);
    expect(elapsed).toBeLessThan(PROBE_TIMEOUT_MS);
    console.info(`keychain probe: ${status.probeMs} ms (status resolved in ${Math.round(elapsed)} ms)`);
  });

  it('sets, gets, lists and deletes through keytar, never through the file', async () => {
    const { store, secretsFile } = newStore();
    const keytar = loadKeytar();
    await expect(store.set('ALPHA_TOKEN', 'alpha-secret-1')).resolves.toBe('keychain');
    expect(await keytar.getPassword(SECRET_SERVICE, 'ALPHA_TOKEN')).toBe('alpha-secret-1');
    expect(fs.existsSync(secretsFile)).toBe(false);
    expect(await store.get('ALPHA_TOKEN')).toBe('alpha-secret-1');

    await store.set('ALPHA_TOKEN', 'alpha-secret-2');
    expect(await store.get('ALPHA_TOKEN')).toBe('alpha-secret-2');
    const items = (await keytar.findCredentials(SECRET_SERVICE)).filter((c) => c.account === 'ALPHA_TOKEN');
    expect(items).toHaveLength(1);

    const listed = await store.list();
    expect(listed).toContainEqual({ key: 'ALPHA_TOKEN', locations: ['keychain'] });
    expect(JSON.stringify(listed)).not.toContain('alpha-secret');
    expect(listed.some((entry) => entry.key.startsWith('agenvoy-probe-'))).toBe(false);

    await expect(store.delete('ALPHA_TOKEN')).resolves.toEqual(['keychain']);
    expect(await keytar.getPassword(SECRET_SERVICE, 'ALPHA_TOKEN')).toBeNull();
    expect(await store.get('ALPHA_TOKEN')).toBeUndefined();
    await expect(store.delete('ALPHA_TOKEN')).resolves.toEqual([]);
  });

  it('looks up keychain, then file, then environment, and moves a file copy into the keychain on set', async () => {
    const { store, secretsFile } = newStore({ ORDER_KEY: 'from-env-value', ENV_ONLY: 'only-in-env' });
    fs.writeFileSync(secretsFile, '# old fallback copies\nORDER_KEY=from-file-value\n', { mode: 0o600 });
    expect(await store.get('ORDER_KEY')).toBe('from-file-value');
    expect(await store.get('ENV_ONLY')).toBe('only-in-env');
    expect(await store.list()).toContainEqual({ key: 'ORDER_KEY', locations: ['file', 'env'] });

    await store.set('ORDER_KEY', 'from-keychain-value');
    expect(await store.get('ORDER_KEY')).toBe('from-keychain-value');
    // One key, one stored value: the stale file copy is gone, the comment stays.
    expect(fs.readFileSync(secretsFile, 'utf8')).toBe('# old fallback copies\n');
    expect(await store.list()).toContainEqual({ key: 'ORDER_KEY', locations: ['keychain', 'env'] });
    await store.delete('ORDER_KEY');
    expect(await store.get('ORDER_KEY')).toBe('from-env-value');
    expect(process.env.ORDER_KEY).toBeUndefined();
  });

  it('hands every value it reads or writes to the redactor', async () => {
    const writer = newStore();
    await writer.store.set('REDACT_ME', 'written-value-123');
    expect(writer.redactor.redact('x written-value-123 y')).toBe('x [redacted:REDACT_ME] y');
    const reader = newStore();
    expect(await reader.store.get('REDACT_ME')).toBe('written-value-123');
    expect(reader.redactor.redact('written-value-123')).toBe('[redacted:REDACT_ME]');
    await reader.store.delete('REDACT_ME');
  });

  it('refuses invalid key names and empty values without touching the keychain', async () => {
    const { store } = newStore();
    await expect(store.set('bad-name', 'value-xyz')).rejects.toThrow(/invalid secret key name/);
    await expect(store.set('GOOD_NAME', '')).rejects.toThrow(/no value/);
    expect(await store.get('bad-name')).toBeUndefined();
  });
});
