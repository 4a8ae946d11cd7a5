// A D-Bus session whose Secret Service never answers (the ~25 s hang of docs/hosts.md, "Building and testing on these machines"): the probe gives up on
// its own timer and the store falls back to the file instead of hanging.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redactor } from '../core/redactor';
import { detectKeychain, PROBE_TIMEOUT_MS } from './detect-backend';
import { SecretStore } from './secret-store';
import type { PrivateBus } from './testing/private-bus';
import { startPrivateBus } from './testing/private-bus';

let bus: PrivateBus;
let serviceDir: string;

beforeAll(async () => {
  serviceDir = fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'agenvoy-services-'));
  // Activating org.freedesktop.secrets starts a process that never claims the name: every call waits for
  // the bus's activation timeout (20 s here), the way a session without a working keyring daemon does.
  const script = path.join(serviceDir, 'never-ready.sh');
  fs.writeFileSync(script, `#!/bin/sh\necho $$ > ${path.join(serviceDir, 'pid')}\nexec sleep 30\n`, {
    mode: 0o755,
  });
  fs.writeFileSync(
    path.join(serviceDir, 'org.freedesktop.secrets.service'),
    `[D-BUS Service]\nName=org.freedesktop.secrets\nExec=${script}\n`,
  );
  bus = await startPrivateBus({ serviceDir });
});

afterAll(async () => {
  const pidFile = path.join(serviceDir, 'pid');
  if (fs.existsSync(pidFile)) {
    try {
      process.kill(Number(fs.readFileSync(pidFile, 'utf8').trim()), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  // The keytar call of the second test still waits in a libuv worker; the bus ends with this process.
  await bus?.stop();
  fs.rmSync(serviceDir, { recursive: true, force: true });
});

describe('SecretStore with a Secret Service that never answers', () => {
  it('gives up after the probe bound and falls back to the file', async () => {
    const store = new SecretStore({
      secretsFile: path.join(bus.dir, '.secrets'),
      redactor: new Redactor(),
      env: {},
    });
    const started = performance.now();
    const status = await store.status();
    const elapsed = performance.now() - started;
    expect(status.backend).toBe('file');
    expect(status.reason).toContain(`did not answer within ${PROBE_TIMEOUT_MS} ms`);
    expect(elapsed).toBeGreaterThanOrEqual(PROBE_TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(PROBE_TIMEOUT_MS + 1000);
    await store.set('HUNG_TOKEN', 'hung-value-1');
    expect(await store.get('HUNG_TOKEN')).toBe('hung-value-1');
    console.info(`hung keychain detected in ${Math.round(elapsed)} ms: ${status.reason}`);
  });

  it('bounds keytar itself where secret-tool is not installed', async () => {
    const started = performance.now();
    const detection = await detectKeychain({ secretTool: null, timeoutMs: 1000 });
    const elapsed = performance.now() - started;
    expect(detection).toMatchObject({ usable: false, reason: 'the keychain did not answer within 1000 ms' });
    expect(elapsed).toBeLessThan(2000);
  });
});
