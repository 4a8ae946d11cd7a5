// `agenvoy secrets …` run in-process through main(), against a real keychain on a private bus.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateBus } from '../secrets/testing/private-bus';
import { startKeyringSession } from '../secrets/testing/keyring-session';
import type { CliIo } from './io';
import { main } from '../launcher/main';

let session: PrivateBus;
let home: string;

beforeAll(async () => {
  session = await startKeyringSession();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-cli-'));
});

afterAll(async () => {
  await session?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

function cli(
  argv: string[],
  options: { stdin?: string; env?: NodeJS.ProcessEnv; interactive?: boolean } = {},
) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    interactive: options.interactive ?? false,
    env: { AGENVOY_HOME: home, ...options.env },
    cwd: home,
  };
  return main(argv, io).then((code) => ({ code, stdout, stderr }));
}

describe('agenvoy secrets', () => {
  const canary = 'cli-canary-value-4417';

  it('set --stdin stores in the keychain; list shows the name and where it lives, never the value', async () => {
    const set = await cli(['secrets', 'set', 'CLI_TOKEN', '--stdin'], { stdin: `${canary}\n` });
    expect(set).toMatchObject({ code: 0, stdout: 'stored CLI_TOKEN in the OS keychain\n' });

    const list = await cli(['secrets', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^backend: keychain \(the OS keychain answered/);
    expect(list.stdout).toMatch(/^CLI_TOKEN {2}keychain$/m);
    expect(list.stdout + list.stderr).not.toContain(canary);

    const json = await cli(['secrets', 'list', '--json'], { env: { CLI_TOKEN: 'shadow-env-value' } });
    const parsed = JSON.parse(json.stdout) as {
      backend: { backend: string; interop: string };
      secrets: unknown[];
    };
    expect(parsed.backend).toMatchObject({ backend: 'keychain', interop: 'secret-tool' });
    expect(parsed.secrets).toContainEqual({ key: 'CLI_TOKEN', locations: ['keychain', 'env'] });
    expect(json.stdout).not.toContain(canary);
    expect(json.stdout).not.toContain('shadow-env-value');
  });

  it('delete removes it and says when an environment variable still provides it', async () => {
    const removed = await cli(['secrets', 'delete', 'CLI_TOKEN'], { env: { CLI_TOKEN: 'x' } });
    expect(removed).toMatchObject({ code: 0, stdout: 'deleted CLI_TOKEN from the keychain\n' });
    expect(removed.stderr).toContain('still set as an environment variable');
    expect((await cli(['secrets', 'list'])).stdout).not.toContain('CLI_TOKEN');
    expect(await cli(['secrets', 'delete', 'CLI_TOKEN'])).toMatchObject({
      code: 1,
      stderr: 'no stored secret CLI_TOKEN\n',
    });
  });

  it('refuses to prompt without a terminal, and rejects bad names and empty input', async () => {
    const noTerminal = await cli(['secrets', 'set', 'NEW_TOKEN']);
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain('--stdin');
    expect((await cli(['secrets', 'set', 'bad-name', '--stdin'], { stdin: 'v' })).code).toBe(2);
    const empty = await cli(['secrets', 'set', 'NEW_TOKEN', '--stdin'], { stdin: '\n' });
    expect(empty).toMatchObject({ code: 1, stderr: 'nothing stored: no value was given for NEW_TOKEN\n' });
    expect((await cli(['secrets', 'get', 'NEW_TOKEN'])).code).toBe(2);
  });
});
