// A keychain write that fails or hangs never loses the key's earlier value, and listing the keychain hands every
// value it finds to the redactor (docs/secrets.md, "Where secrets live" and "Without keytar"). Against a real
// gnome-keyring on a private bus; the failing `secret-tool` is a real one behind a wrapper script that fails or hangs
// the store runs it is told to.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Redactor } from '../core/redactor';
import type { Keytar } from './keychain';
import { loadKeytar } from './keychain';
import { findSecretTool, SECRET_SERVICE, SecretTool } from './secret-tool';
import { SecretStore } from './secret-store';
import type { PrivateBus } from './testing/private-bus';
import { startKeyringSession } from './testing/keyring-session';

let session: PrivateBus;
let dir: string;
let wrapper: string;

beforeAll(async () => {
  session = await startKeyringSession();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-failing-secret-tool-'));
  const real = findSecretTool();
  if (!real) throw new Error('secret-tool is not installed (apt-get install libsecret-tools)');
  wrapper = path.join(dir, 'secret-tool');
  // Store runs are numbered (in `count`); those listed in `fail` exit 1 as a locked collection does, those in
  // `hang` never answer (exec: the timeout's SIGKILL ends the sleep itself). Everything else is the real tool.
  fs.writeFileSync(
    wrapper,
    `#!/bin/sh
dir='${dir}'
if [ "$1" = store ]; then
  n=$(( $(cat "$dir/count" 2>/dev/null || echo 0) + 1 ))
  echo "$n" > "$dir/count"
  if grep -qx "$n" "$dir/hang" 2>/dev/null; then exec sleep 30; fi
  if grep -qx "$n" "$dir/fail" 2>/dev/null; then
    echo 'Cannot create an item in a locked collection' >&2
    exit 1
  fi
fi
exec '${real}' "$@"
`,
    { mode: 0o755 },
  );
});

afterAll(async () => {
  await session?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  for (const file of ['count', 'fail', 'hang']) fs.rmSync(path.join(dir, file), { force: true });
});

/** Makes the wrapper's store runs numbered `fail` fail and those numbered `hang` hang, counting from now. */
function storesWill({ fail = [], hang = [] }: { fail?: number[]; hang?: number[] }): void {
  fs.writeFileSync(path.join(dir, 'count'), '0');
  fs.writeFileSync(path.join(dir, 'fail'), fail.map((n) => `${n}\n`).join(''));
  fs.writeFileSync(path.join(dir, 'hang'), hang.map((n) => `${n}\n`).join(''));
}

/** A store reaching the keychain through the wrapper, as where keytar is not installed (or with `keytar`). */
function storeVia(keytar: Keytar | null = null, timeoutMs = 2000) {
  const home = fs.mkdtempSync(path.join(dir, 'home-'));
  const redactor = new Redactor();
  const secretTool = new SecretTool(wrapper, timeoutMs);
  const access = keytar
    ? { via: 'keytar' as const, keytar, secretTool }
    : { via: 'secret-tool' as const, secretTool };
  const store = new SecretStore({
    secretsFile: path.join(home, '.secrets'),
    redactor,
    env: {},
    detect: () =>
      Promise.resolve({
        usable: true,
        access,
        interopNote: 'secret-tool finds items other programs stored',
        keytarNote: keytar ? null : "keytar could not be loaded (Cannot find module 'keytar')",
        probeMs: 0,
      }),
  });
  return { store, redactor, secretsFile: path.join(home, '.secrets') };
}

/** The real secret-tool, as another program runs it. */
function secretTool(
  args: string[],
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('secret-tool', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Every value stored for `account`, whoever stored it. */
async function values(account: string): Promise<string[]> {
  const search = await secretTool(['search', '--all', 'service', SECRET_SERVICE, 'account', account]);
  return [...search.stdout.matchAll(/^secret = (.*)$/gm)].map((match) => match[1] ?? '').sort();
}

/** The message `work` rejects with (the test fails if it resolves): read after what is left in the keychain. */
async function rejection(work: Promise<unknown>): Promise<string> {
  const message = await work.then(
    () => null,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  expect(message, 'the write should have failed').not.toBeNull();
  return message ?? '';
}

/**
 * Stores an item as another program does (no keytar marker). In the login collection gnome-keyring may later give
 * such an item keytar's schema name, and then a write of ours replaces it in place; `session` keeps it a separate
 * copy, in the in-memory collection, for the tests of clearing older copies.
 */
async function storeForeign(account: string, value: string, collection: 'login' | 'session' = 'login') {
  const where =
    collection === 'session' ? ['--collection', '/org/freedesktop/secrets/collection/session'] : [];
  const stored = await secretTool(
    ['store', '--label', 'other', ...where, 'service', SECRET_SERVICE, 'account', account],
    value,
  );
  expect(stored.code, stored.stderr).toBe(0);
}

describe('a keychain write that fails, without keytar', () => {
  it('keeps the value Agenvoy stored before when the store is refused, and says so', async () => {
    const { store } = storeVia();
    await store.set('KEPT_TOKEN', 'kept-value-1');
    storesWill({ fail: [1] });
    const message = await rejection(store.set('KEPT_TOKEN', 'lost-value-2'));
    expect(await values('KEPT_TOKEN')).toEqual(['kept-value-1']);
    expect(await storeVia().store.get('KEPT_TOKEN')).toBe('kept-value-1');
    expect(message).toMatch(
      /^could not store KEPT_TOKEN in the keychain \(secret-tool store failed \(exit 1\): Cannot create an item in a locked collection\); its earlier value was left in place$/,
    );
  });

  it('keeps the value when the store hangs (a keyring prompt) and is killed at the time limit', async () => {
    const { store } = storeVia(null, 500);
    await store.set('HUNG_TOKEN', 'hung-value-1');
    storesWill({ hang: [1] });
    const started = performance.now();
    const message = await rejection(store.set('HUNG_TOKEN', 'hung-value-2'));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await values('HUNG_TOKEN')).toEqual(['hung-value-1']);
    expect(message).toMatch(
      /^could not store HUNG_TOKEN in the keychain \(secret-tool store did not answer within 500 ms\); its earlier value was left in place$/,
    );
  });

  it("keeps another program's item when the store is refused", async () => {
    await storeForeign('CLI_KEPT_TOKEN', 'cli-value-1\n');
    const { store, secretsFile } = storeVia();
    storesWill({ fail: [1] });
    const message = await rejection(store.set('CLI_KEPT_TOKEN', 'our-value-1'));
    expect(await values('CLI_KEPT_TOKEN')).toEqual(['cli-value-1']);
    expect(await store.get('CLI_KEPT_TOKEN')).toBe('cli-value-1');
    expect(fs.existsSync(secretsFile)).toBe(false);
    expect(message).toMatch(/its earlier value was left in place$/);
  });

  it('puts the earlier value back when writing again after clearing older copies fails', async () => {
    await storeForeign('CLI_BACK_TOKEN', 'cli-back-1\n', 'session');
    const { store } = storeVia();
    // Store 1 writes our item beside the other program's; clearing both and storing again (2) fails; 3 puts back.
    storesWill({ fail: [2] });
    const message = await rejection(store.set('CLI_BACK_TOKEN', 'our-back-1'));
    // Exactly as it was (the trailing newline too), and now as the item keytar would find.
    expect(
      (await secretTool(['lookup', 'service', SECRET_SERVICE, 'account', 'CLI_BACK_TOKEN'])).stdout,
    ).toBe('cli-back-1\n');
    expect(await loadKeytar().getPassword(SECRET_SERVICE, 'CLI_BACK_TOKEN')).toBe('cli-back-1\n');
    expect(await storeVia().store.get('CLI_BACK_TOKEN')).toBe('cli-back-1');
    expect(message).toMatch(
      /^could not store CLI_BACK_TOKEN in the keychain after clearing its older copies \(secret-tool store failed \(exit 1\): Cannot create an item in a locked collection\); its earlier value was put back$/,
    );
  });

  it('says when the earlier value could not be put back either', async () => {
    await storeForeign('CLI_GONE_TOKEN', 'cli-gone-1', 'session');
    const { store } = storeVia();
    storesWill({ fail: [2, 3] });
    const message = await rejection(store.set('CLI_GONE_TOKEN', 'our-gone-1'));
    expect(message).toMatch(
      /after clearing its older copies \(.*locked collection\), and its earlier value could not be put back \(.*locked collection\): store CLI_GONE_TOKEN again$/,
    );
  });

  it('says a key with no value before still has none', async () => {
    const { store } = storeVia();
    storesWill({ fail: [1] });
    const message = await rejection(store.set('NEW_TOKEN', 'new-value-1'));
    expect(await values('NEW_TOKEN')).toEqual([]);
    expect(message).toMatch(
      /^could not store NEW_TOKEN in the keychain \(.*locked collection\); it had no value before$/,
    );
  });

  it('replaces its own item in place and clears other programs’ copies when nothing fails', async () => {
    await storeForeign('CLI_SWAP_TOKEN', 'cli-swap-1', 'session');
    const { store } = storeVia();
    await store.set('CLI_SWAP_TOKEN', 'our-swap-1');
    expect(await values('CLI_SWAP_TOKEN')).toEqual(['our-swap-1']);
    await store.set('CLI_SWAP_TOKEN', 'our-swap-2');
    expect(await values('CLI_SWAP_TOKEN')).toEqual(['our-swap-2']);
    expect(await loadKeytar().getPassword(SECRET_SERVICE, 'CLI_SWAP_TOKEN')).toBe('our-swap-2');
  });
});

describe('a keychain write that fails, with keytar', () => {
  it("keeps the earlier value, keytar's and another program's, when keytar's write fails", async () => {
    const real = loadKeytar();
    const failing: Keytar = {
      getPassword: (service, account) => real.getPassword(service, account),
      deletePassword: (service, account) => real.deletePassword(service, account),
      findCredentials: (service) => real.findCredentials(service),
      setPassword: () => Promise.reject(new Error('keytar native call failed')),
    };
    await real.setPassword(SECRET_SERVICE, 'KEYTAR_KEPT_TOKEN', 'keytar-kept-1');
    await storeForeign('CLI_KEYTAR_TOKEN', 'cli-keytar-1');
    const { store } = storeVia(failing);
    const message1 = await rejection(store.set('KEYTAR_KEPT_TOKEN', 'keytar-lost-2'));
    const message2 = await rejection(store.set('CLI_KEYTAR_TOKEN', 'cli-lost-2'));
    expect(await values('KEYTAR_KEPT_TOKEN')).toEqual(['keytar-kept-1']);
    expect(await values('CLI_KEYTAR_TOKEN')).toEqual(['cli-keytar-1']);
    expect(message1).toMatch(
      /^could not store KEYTAR_KEPT_TOKEN in the keychain \(keytar native call failed\); its earlier value was left in place$/,
    );
    expect(message2).toMatch(/earlier value was left in place$/);
  });
});

describe('listing without keytar', () => {
  it('hands every value it finds to the redactor, as keytar’s listing does', async () => {
    await storeForeign('CLI_LISTED_TOKEN', 'cli-listed-value-1\n');
    await storeVia().store.set('OUR_LISTED_TOKEN', 'our-listed-value-1');
    // A new process: nothing has read either value yet.
    const { store, redactor } = storeVia();
    const text = 'a cli-listed-value-1 b our-listed-value-1 c';
    expect(redactor.redact(text)).toBe(text);
    const listed = await store.list();
    expect(listed).toContainEqual({ key: 'CLI_LISTED_TOKEN', locations: ['keychain'] });
    expect(listed).toContainEqual({ key: 'OUR_LISTED_TOKEN', locations: ['keychain'] });
    expect(JSON.stringify(listed)).not.toContain('listed-value');
    expect(redactor.redact(text)).toBe('a [redacted:CLI_LISTED_TOKEN] b [redacted:OUR_LISTED_TOKEN] c');
  });
});
