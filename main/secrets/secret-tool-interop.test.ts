// Linux interop with items other programs stored under service=agenvoy account=KEY without keytar's schema.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../core/redactor';
import { loadKeytar } from './keychain';
import { SECRET_SERVICE } from './secret-tool';
import { SecretStore } from './secret-store';
import type { PrivateBus } from './testing/private-bus';
import { startKeyringSession } from './testing/keyring-session';

let session: PrivateBus;
let home: string;

beforeAll(async () => {
  session = await startKeyringSession();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-home-'));
});

afterAll(async () => {
  await session?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

// What another program does: `secret-tool store` with the value on stdin, no keytar schema marker.
function foreignStore(account: string, value: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'secret-tool',
      ['store', '--label', `other ${account}`, 'service', SECRET_SERVICE, 'account', account],
      {
        stdio: ['pipe', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`secret-tool store: ${stderr}`))));
    child.stdin.end(value);
  });
}

function secretTool(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('secret-tool', args, { timeout: 5000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const newStore = () =>
  new SecretStore({ secretsFile: path.join(home, '.secrets'), redactor: new Redactor(), env: {} });

describe('secret-tool interop', () => {
  it('finds an item another program stored without keytar’s schema', async () => {
    await foreignStore('FOREIGN_TOKEN', 'foreign-value-1');
    // Whether keytar alone sees such an item varies with libsecret's state (it usually does not, and
    // sometimes does under load), so only the store's answer is asserted: it must find it either way.
    const store = newStore();
    expect((await store.status()).backend).toBe('keychain');
    expect(await store.get('FOREIGN_TOKEN')).toBe('foreign-value-1');
    expect(await store.list()).toContainEqual({ key: 'FOREIGN_TOKEN', locations: ['keychain'] });
    await store.delete('FOREIGN_TOKEN');
  });

  it('drops the newline `echo value | secret-tool store` leaves behind', async () => {
    await foreignStore('PIPED_TOKEN', 'piped-value-1\n');
    expect(await newStore().get('PIPED_TOKEN')).toBe('piped-value-1');
    await newStore().delete('PIPED_TOKEN');
  });

  it('writes items `secret-tool lookup service agenvoy account KEY` reads', async () => {
    const store = newStore();
    await store.set('OURS_TOKEN', 'our-value-1');
    const lookup = await secretTool(['lookup', 'service', SECRET_SERVICE, 'account', 'OURS_TOKEN']);
    expect(lookup).toMatchObject({ code: 0, stdout: 'our-value-1' });
    await store.delete('OURS_TOKEN');
    expect((await secretTool(['lookup', 'service', SECRET_SERVICE, 'account', 'OURS_TOKEN'])).code).toBe(1);
  });

  it('replaces an item another program stored, so the key has one value', async () => {
    await foreignStore('SHARED_TOKEN', 'old-foreign-value');
    const store = newStore();
    await store.set('SHARED_TOKEN', 'new-our-value');
    const search = await secretTool([
      'search',
      '--all',
      'service',
      SECRET_SERVICE,
      'account',
      'SHARED_TOKEN',
    ]);
    expect(search.stdout.match(/^secret = /gm)).toHaveLength(1);
    expect(search.stdout).not.toContain('old-foreign-value');
    expect((await secretTool(['lookup', 'service', SECRET_SERVICE, 'account', 'SHARED_TOKEN'])).stdout).toBe(
      'new-our-value',
    );
    expect(await loadKeytar().getPassword(SECRET_SERVICE, 'SHARED_TOKEN')).toBe('new-our-value');
    expect(await newStore().get('SHARED_TOKEN')).toBe('new-our-value');
  });

  it('sees another program’s later write and deletes every item for the key', async () => {
    await newStore().set('GONE_TOKEN', 'ours-first');
    await foreignStore('GONE_TOKEN', 'theirs-second');
    const store = newStore();
    expect(await store.get('GONE_TOKEN')).toBe('theirs-second');
    await expect(store.delete('GONE_TOKEN')).resolves.toEqual(['keychain']);
    expect((await secretTool(['lookup', 'service', SECRET_SERVICE, 'account', 'GONE_TOKEN'])).code).toBe(1);
    expect(await store.get('GONE_TOKEN')).toBeUndefined();
  });
});
