// The masked terminal prompt on a REAL pseudo-terminal: nothing typed may reach the screen.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { SecretsFile } from './secrets-file';
import { StreamSecretPrompt, TerminalSecretPrompt } from './terminal-prompt';
import { hasScript, runOnPty } from './testing/pty';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agenvoy-pty-'));
const bin = path.resolve(import.meta.dirname, '../../bin/agenvoy');
const fixture = path.resolve(import.meta.dirname, 'testing/store-secret-on-terminal.ts');

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

// No D-Bus for the child: the value lands in the 0600 file, where the test can read it back.
function childEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, AGENVOY_HOME: home, XDG_RUNTIME_DIR: home };
  delete env.DBUS_SESSION_BUS_ADDRESS;
  delete env.DISPLAY;
  return env;
}

const newHome = () => fs.mkdtempSync(path.join(root, 'home-'));

describe.skipIf(!hasScript())('masked terminal prompt on a pty', () => {
  it('agenvoy secrets set reads the value without echo and stores it', async () => {
    const home = newHome();
    const value = 'pty-typed-value-5521';
    const run = runOnPty([process.execPath, bin, 'secrets', 'set', 'PTY_TOKEN'], childEnv(home));
    await run.waitFor('input hidden');
    // Typed with a typo fixed by Backspace, and an arrow key that is not part of the value.
    run.type(`${value}X\x7f\x1b[D\r`);
    expect(await run.exit).toBe(0);
    expect(run.screen()).toContain('stored PTY_TOKEN');
    expect(run.screen()).not.toContain('pty-typed');
    expect(run.screen()).not.toContain('*');
    expect(await new SecretsFile(path.join(home, '.secrets')).get('PTY_TOKEN')).toBe(value);
  });

  it('Ctrl-C declines: nothing is stored', async () => {
    const home = newHome();
    const run = runOnPty([process.execPath, bin, 'secrets', 'set', 'PTY_TOKEN'], childEnv(home));
    await run.waitFor('input hidden');
    run.type('half-typed\x03');
    expect(await run.exit).toBe(1);
    expect(run.screen()).toContain('nothing stored');
    expect(run.screen()).not.toContain('half-typed');
    expect(fs.existsSync(path.join(home, '.secrets'))).toBe(false);
  });

  it('store_secret asks through it; the model and the tool output see only the key name', async () => {
    const home = newHome();
    const value = 'pty-store-secret-8830';
    const run = runOnPty([process.execPath, '--import', 'tsx', fixture], childEnv(home));
    await run.waitFor('Paste the PTY test key.');
    await run.waitFor('input hidden');
    run.type(`${value}\r`);
    expect(await run.exit).toBe(0);
    const line =
      run
        .screen()
        .split(/\r?\n/)
        .find((l) => l.startsWith('RESULT ')) ?? '';
    const result = JSON.parse(line.slice('RESULT '.length)) as {
      stored: { text: string };
      echoed: { text: string };
    };
    expect(result.stored.text).toBe('stored PTY_KEY; call echo_key again');
    expect(result.echoed.text).toBe('the key is [redacted:PTY_KEY]');
    expect(run.screen()).not.toContain(value);
    const log = path.join(home, 'desktop', 'logs', 'app.log');
    expect(fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '').not.toContain(value);
    expect(await new SecretsFile(path.join(home, '.secrets')).get('PTY_KEY')).toBe(value);
  });
});

describe('TerminalSecretPrompt', () => {
  it('refuses a stream that is not a terminal', async () => {
    const prompt = new TerminalSecretPrompt(new PassThrough(), () => {});
    await expect(prompt.read({ key: 'K_EY', question: 'q' }, new AbortController().signal)).rejects.toThrow(
      /--stdin/,
    );
  });
});

describe('StreamSecretPrompt', () => {
  it('reads a piped value, dropping one trailing newline', async () => {
    const read = (text: string) =>
      new StreamSecretPrompt(PassThrough.from([text])).read(
        { key: 'K_EY', question: 'q' },
        new AbortController().signal,
      );
    await expect(read('piped value\n')).resolves.toBe('piped value');
    await expect(read('two\nlines\r\n')).resolves.toBe('two\nlines');
    await expect(read('')).resolves.toBeNull();
    await expect(read('x'.repeat(70 * 1024))).rejects.toThrow(/longer than/);
  });
});
