// Which backend the store uses, decided by a probe write/read/delete bounded by our own timer (SPEC §9).
import { randomBytes } from 'node:crypto';
import type { Keytar } from './keychain';
import { loadKeytar } from './keychain';
import type { SecretTool } from './secret-tool';
import { SECRET_SERVICE } from './secret-tool';
import { withTimeout } from './with-timeout';

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
  /** secret-tool to verify against the probe item (Linux only); null when absent. */
  secretTool: SecretTool | null;
  timeoutMs?: number;
}

/** Probes the keychain: write, read back, (secret-tool read back), delete, all within `timeoutMs`. */
export async function detectKeychain(options: DetectOptions): Promise<Detection> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  let keytar: Keytar;
  try {
    keytar = (options.loadKeytar ?? loadKeytar)();
  } catch (error) {
    return { usable: false, reason: `keytar could not be loaded (${message(error)})`, probeMs: elapsed() };
  }
  const account = `${PROBE_ACCOUNT_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`;
  const value = randomBytes(12).toString('hex');
  let written = false;
  try {
    await withTimeout(
      (async () => {
        await keytar.setPassword(SECRET_SERVICE, account, value);
        written = true;
        const back = await keytar.getPassword(SECRET_SERVICE, account);
        if (back !== value) throw new Error('the keychain did not return the probe value it was given');
      })(),
      timeoutMs,
      'the keychain probe',
    );
  } catch (error) {
    // A probe item left behind by a half-working keychain is removed if the keychain lets us.
    if (written) void withTimeout(keytar.deletePassword(SECRET_SERVICE, account), 1000, 'probe cleanup').catch(() => false);
    return { usable: false, reason: message(error), probeMs: elapsed() };
  }
  let interop: SecretTool | null = null;
  let interopNote = 'secret-tool is not installed: items other programs stored without keytar are not seen';
  if (options.secretTool) {
    try {
      const seen = await options.secretTool.lookup(account);
      interop = seen === value ? options.secretTool : null;
      interopNote = interop ? 'secret-tool finds items other programs stored' : 'secret-tool did not see the probe item';
    } catch (error) {
      interopNote = `secret-tool failed (${message(error)})`;
    }
  }
  await withTimeout(keytar.deletePassword(SECRET_SERVICE, account), timeoutMs, 'the keychain probe delete').catch(() => false);
  return { usable: true, keytar, interop, interopNote, probeMs: elapsed() };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
