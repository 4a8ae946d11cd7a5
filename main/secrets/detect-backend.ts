// Which backend the store uses, decided by a probe write/read/delete bounded by our own timer (docs/secrets.md,
// "No keychain" and "Without keytar"): keytar when it loads and works, else secret-tool, else no keychain.
import { randomBytes } from 'node:crypto';
import type { KeychainAccess, Keytar } from './keychain';
import { loadKeytar } from './keychain';
import { SECRET_SERVICE, SecretTool } from './secret-tool';
import { KeychainTimeoutError, withTimeout } from './with-timeout';

/** The whole probe's limit: a usable keychain answers in tens of milliseconds. */
export const PROBE_TIMEOUT_MS = 3000;

/** Probe items use an account name no valid key can have, so they never show up as secrets. */
export const PROBE_ACCOUNT_PREFIX = 'agenvoy-probe-';

/** What the probe found. */
export type Detection =
  | {
      usable: true;
      access: KeychainAccess;
      interopNote: string;
      /** Why keytar is not used, when the keychain is reached through secret-tool alone; null otherwise. */
      keytarNote: string | null;
      probeMs: number;
    }
  | { usable: false; reason: string; probeMs: number };

/** What the probe needs; tests and hosts may swap the pieces. */
export interface DetectOptions {
  loadKeytar?: () => Keytar;
  /** secret-tool (Linux): probed first, since it can be killed on a hang, then checked against keytar's item. */
  secretTool: SecretTool | null;
  timeoutMs?: number;
}

/**
 * Probes the keychain within `timeoutMs`. With secret-tool (Linux) it goes first: store, lookup, clear; then keytar
 * writes and reads back; secret-tool must see keytar's item (interop); the item is cleared. Where keytar cannot be
 * loaded or fails, a secret-tool that passed its own probe is the keychain.
 */
export async function detectKeychain(options: DetectOptions): Promise<Detection> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const remaining = () => Math.max(1, Math.round(timeoutMs - (performance.now() - started)));
  let keytar: Keytar | null = null;
  let keytarNote: string | null = null;
  try {
    keytar = (options.loadKeytar ?? loadKeytar)();
  } catch (error) {
    // The first line only: a missing module's message goes on with its require stack.
    keytarNote = `keytar could not be loaded (${message(error).split('\n')[0]})`;
  }
  const unusable = (error: unknown): Detection => {
    const why =
      error instanceof KeychainTimeoutError
        ? `the keychain did not answer within ${timeoutMs} ms`
        : message(error);
    return { usable: false, reason: keytarNote ? `${keytarNote}; ${why}` : why, probeMs: elapsed() };
  };
  const account = `${PROBE_ACCOUNT_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`;
  const value = randomBytes(12).toString('hex');
  const secretTool = options.secretTool;
  const tool = (found: SecretTool) => new SecretTool(found.command, remaining());

  // secret-tool first: it is a child process we can kill. A keychain that would hang keytar hangs it instead,
  // so keytar is never called there (a stuck keytar call holds a libuv worker, and so the process, ~25 s).
  let toolProblem: string | null = secretTool ? null : 'secret-tool is not installed';
  if (secretTool) {
    try {
      await tool(secretTool).store(account, value);
      let back: string | null;
      try {
        back = await tool(secretTool).lookup(account);
      } finally {
        await tool(secretTool).clear(account);
      }
      if (back !== value) toolProblem = 'secret-tool did not return the probe value it was given';
    } catch (error) {
      if (error instanceof KeychainTimeoutError) return unusable(error);
      // A secret-tool failure that is not a hang: keytar (bounded below) has the last word.
      toolProblem = `secret-tool failed (${message(error)})`;
    }
  }
  const viaSecretTool = (why: string): Detection => ({
    usable: true,
    access: { via: 'secret-tool', secretTool: secretTool as SecretTool },
    interopNote: 'secret-tool reads and writes every item, so items other programs stored are found',
    keytarNote: why,
    probeMs: elapsed(),
  });
  if (!keytar) {
    const why = keytarNote ?? 'keytar could not be loaded';
    return toolProblem === null ? viaSecretTool(why) : unusable(new Error(toolProblem));
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
    const failure = unusable(error);
    if (toolProblem === null && !failure.usable) return viaSecretTool(`keytar failed (${failure.reason})`);
    return failure;
  }

  let interop: SecretTool | null = null;
  let interopNote = toolProblem
    ? `${toolProblem}: items other programs stored without keytar are not seen`
    : '';
  if (secretTool && toolProblem === null) {
    try {
      interop = (await tool(secretTool).lookup(account)) === value ? secretTool : null;
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
  return {
    usable: true,
    access: { via: 'keytar', keytar, secretTool: interop },
    interopNote,
    keytarNote: null,
    probeMs: elapsed(),
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
