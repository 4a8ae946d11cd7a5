// Which backend the store uses, decided by a probe write/read/delete bounded by our own timer (docs/secrets.md, "No keychain").
import { randomBytes } from 'node:crypto';
import type { Keytar } from './keychain';
import { loadKeytar } from './keychain';
import { SECRET_SERVICE, SecretTool } from './secret-tool';
import { KeychainTimeoutError, withTimeout } from './with-timeout';

/** The whole probe's limit: a usable keychain answers in tens of milliseconds. */
export const PROBE_TIMEOUT_MS = 3000;

/** Probe items use an account name no valid key can have, so they never show up as secrets. */
export const PROBE_ACCOUNT_PREFIX = 'agenvoy-probe-';

/** What the probe found. */
export type Detection =
  | { usable: true; keytar: Keytar; interop: SecretTool | null; interopNote: string; probeMs: number }
  | { usable: false; reason: string; probeMs: number };

/** What the probe needs; tests and hosts may swap the pieces. */
export interface DetectOptions {
  loadKeytar?: () => Keytar;
  /** secret-tool (Linux): probed first, since it can be killed on a hang, then checked against keytar's item. */
  secretTool: SecretTool | null;
  timeoutMs?: number;
}

/**
 * Probes the keychain within `timeoutMs`. With secret-tool (Linux) it goes first: store, clear; then keytar
 * writes and reads back; secret-tool must see keytar's item (interop); the item is cleared.
 */
export async function detectKeychain(options: DetectOptions): Promise<Detection> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const remaining = () => Math.max(1, Math.round(timeoutMs - (performance.now() - started)));
  const unusable = (error: unknown): Detection => ({
    usable: false,
    reason:
      error instanceof KeychainTimeoutError
        ? `the keychain did not answer within ${timeoutMs} ms`
        : message(error),
    probeMs: elapsed(),
  });
  let keytar: Keytar;
  try {
    keytar = (options.loadKeytar ?? loadKeytar)();
  } catch (error) {
    return { usable: false, reason: `keytar could not be loaded (${message(error)})`, probeMs: elapsed() };
  }
  const account = `${PROBE_ACCOUNT_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`;
  const value = randomBytes(12).toString('hex');
  const tool = () => (options.secretTool ? new SecretTool(options.secretTool.command, remaining()) : null);
  let interopNote = options.secretTool
    ? ''
    : 'secret-tool is not installed: items other programs stored without keytar are not seen';

  // secret-tool first: it is a child process we can kill. A keychain that would hang keytar hangs it instead,
  // so keytar is never called there (a stuck keytar call holds a libuv worker, and so the process, ~25 s).
  try {
    await tool()?.store(account, value);
    await tool()?.clear(account);
  } catch (error) {
    if (error instanceof KeychainTimeoutError) return unusable(error);
    // A secret-tool failure that is not a hang: keytar (bounded below) has the last word.
    interopNote = `secret-tool failed (${message(error)})`;
  }

  let written = false;
  try {
    await withTimeout(
      (async () => {
        await keytar.setPassword(SECRET_SERVICE, account, value);
        written = true;
        const back = await keytar.getPassword(SECRET_SERVICE, account);
        if (back !== value) throw new Error('the keychain did not return the probe value it was given');
      })(),
      remaining(),
      'the keychain probe',
    );
  } catch (error) {
    // A probe item left behind by a half-working keychain is removed if the keychain lets us.
    if (written)
      void withTimeout(keytar.deletePassword(SECRET_SERVICE, account), 1000, 'probe cleanup').catch(
        () => false,
      );
    return unusable(error);
  }

  let interop: SecretTool | null = null;
  if (options.secretTool && !interopNote) {
    try {
      interop = (await tool()?.lookup(account)) === value ? options.secretTool : null;
      interopNote = interop
        ? 'secret-tool finds items other programs stored'
        : 'secret-tool did not see the probe item';
    } catch (error) {
      interopNote = `secret-tool failed (${message(error)})`;
    }
  }
  await withTimeout(
    keytar.deletePassword(SECRET_SERVICE, account),
    remaining(),
    'the keychain probe delete',
  ).catch(() => false);
  return { usable: true, keytar, interop, interopNote, probeMs: elapsed() };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
