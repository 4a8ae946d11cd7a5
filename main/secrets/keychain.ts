// The OS keychain (service `agenvoy`, account = key name) through keytar, or through libsecret's `secret-tool`
// where keytar is not installed (docs/secrets.md, "Where secrets live").
import { createRequire } from 'node:module';
import type { SecretTool } from './secret-tool';
import { SECRET_SERVICE } from './secret-tool';
import { withTimeout } from './with-timeout';

/**
 * keytar's functions, as the store uses them. Declared here rather than imported from keytar: it is an optional
 * dependency, absent wherever its native build failed (no libsecret headers), and the code must still compile there.
 */
export interface Keytar {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
}

/** Default limit of one keychain call after detection. */
export const KEYCHAIN_TIMEOUT_MS = 5000;

/** Loads keytar's native module; throws when it is not installed or not built for this machine. */
export function loadKeytar(): Keytar {
  // createRequire: keytar is CommonJS with a native addon, loaded only when the keychain is first needed.
  return createRequire(import.meta.url)('keytar') as Keytar;
}

/**
 * How the keychain is reached: keytar (with secret-tool beside it on Linux, when it answered the probe, for items
 * other programs stored), or secret-tool alone where keytar cannot be loaded or failed its probe.
 */
export type KeychainAccess =
  | { via: 'keytar'; keytar: Keytar; secretTool: SecretTool | null }
  | { via: 'secret-tool'; secretTool: SecretTool };

/** The keychain with one value per key, seen the same way by keytar and by `secret-tool`. */
export class Keychain {
  constructor(
    private readonly access: KeychainAccess,
    /** Told every value read from the keychain, so it can be redacted. */
    private readonly seen: (key: string, value: string) => void,
    private readonly timeoutMs = KEYCHAIN_TIMEOUT_MS,
  ) {}

  /** The value for `key`, stored by us or (through secret-tool) by another program; null when absent. */
  async get(key: string): Promise<string | null> {
    const found = await this.raw(key);
    if (found === null) return null;
    // `echo value | secret-tool store …` stores the newline too, and some libsecret versions let keytar
    // find such foreign items itself: a key never means to end with a newline, whichever path found it.
    const value = withoutNewline(found);
    this.seen(key, value);
    return value;
  }

  /**
   * Stores `value` as the one item for `key`, replacing older ones whoever stored them. A failed write never loses
   * the key's earlier value (docs/secrets.md, "Where secrets live"): the item keytar reads and writes is written in
   * place first, which replaces only itself; other programs' items are cleared only after that, and if writing
   * again after the clear fails, the earlier value is put back.
   */
  async set(key: string, value: string): Promise<void> {
    const { keytar, secretTool } = this.parts();
    if (!secretTool) {
      if (keytar) await this.bound(keytar.setPassword(SECRET_SERVICE, key, value), 'keychain write');
      this.seen(key, value);
      return;
    }
    const earlier = await this.raw(key).catch((error: unknown) => {
      throw new KeychainWriteError(
        `could not store ${key} in the keychain: its current value could not be read (${messageOf(error)}); ` +
          'nothing was changed',
      );
    });
    if (earlier !== null) this.seen(key, withoutNewline(earlier));
    try {
      await this.write(key, value, keytar, secretTool);
    } catch (error) {
      throw new KeychainWriteError(
        `could not store ${key} in the keychain (${messageOf(error)}); ` +
          (earlier === null ? 'it had no value before' : 'its earlier value was left in place'),
      );
    }
    this.seen(key, value);
    // Items other programs stored (without keytar's marker) would still answer a lookup: one key, one value. With
    // no earlier value there is none; a listing that fails counts as more than one, so no stale copy is left unseen.
    if (earlier === null || (await secretTool.count(key).catch(() => Infinity)) <= 1) return;
    try {
      await secretTool.clear(key);
      await this.write(key, value, keytar, secretTool);
    } catch (error) {
      throw await this.putBack(key, earlier, secretTool, messageOf(error));
    }
  }

  /** Removes every item for `key`; true when there was one. */
  async delete(key: string): Promise<boolean> {
    const { keytar, secretTool } = this.parts();
    const ours = keytar
      ? await this.bound(keytar.deletePassword(SECRET_SERVICE, key), 'keychain delete')
      : false;
    const foreign = secretTool ? await secretTool.clear(key) : false;
    return ours || foreign;
  }

  /**
   * Key names stored under service `agenvoy`, ours and other programs'. Every value found is handed to the redactor,
   * as keytar's listing does, so a key nobody has read yet is scrubbed from output too.
   */
  async keys(): Promise<string[]> {
    const { keytar, secretTool } = this.parts();
    const names = new Set<string>();
    if (keytar) {
      for (const { account, password } of await this.bound(
        keytar.findCredentials(SECRET_SERVICE),
        'keychain list',
      )) {
        this.seen(account, password);
        names.add(account);
      }
    }
    if (!secretTool) return [...names];
    const others = (await secretTool.accounts()).filter((account) => !names.has(account));
    for (const account of others) names.add(account);
    await this.seeValues(others, secretTool);
    return [...names];
  }

  // secret-tool's listing carries no values: each is looked up. A value that cannot be read (a locked keyring) is
  // not handed out by `get` either; after the first such failure the rest are not tried, so a list costs at most
  // one timeout.
  private async seeValues(accounts: readonly string[], secretTool: SecretTool): Promise<void> {
    for (const account of accounts) {
      const found = await secretTool.lookup(account).catch(() => undefined);
      if (found === undefined) return;
      if (found !== null) this.seen(account, withoutNewline(found));
    }
  }

  // The value `get` would find, as stored (a trailing newline kept), so it can be put back exactly.
  private async raw(key: string): Promise<string | null> {
    const { keytar, secretTool } = this.parts();
    const ours = keytar ? await this.bound(keytar.getPassword(SECRET_SERVICE, key), 'keychain read') : null;
    return ours ?? (secretTool ? await secretTool.lookup(key) : null);
  }

  // keytar's own write, or without keytar the item keytar would have written (its schema marker included).
  private async write(
    key: string,
    value: string,
    keytar: Keytar | null,
    secretTool: SecretTool,
  ): Promise<void> {
    if (keytar) await this.bound(keytar.setPassword(SECRET_SERVICE, key, value), 'keychain write');
    else await secretTool.store(key, value, { asKeytar: true });
  }

  // After every item was cleared and the new value could not be written again: the earlier value is stored again
  // (as keytar's item, which keytar and secret-tool both find), and the error says whether the key kept it.
  private async putBack(
    key: string,
    earlier: string,
    secretTool: SecretTool,
    failure: string,
  ): Promise<KeychainWriteError> {
    const head = `could not store ${key} in the keychain after clearing its older copies (${failure})`;
    try {
      await secretTool.store(key, earlier, { asKeytar: true });
      return new KeychainWriteError(`${head}; its earlier value was put back`);
    } catch (error) {
      return new KeychainWriteError(
        `${head}, and its earlier value could not be put back (${messageOf(error)}): store ${key} again`,
      );
    }
  }

  private parts(): { keytar: Keytar | null; secretTool: SecretTool | null } {
    return this.access.via === 'keytar'
      ? { keytar: this.access.keytar, secretTool: this.access.secretTool }
      : { keytar: null, secretTool: this.access.secretTool };
  }

  private bound<T>(work: Promise<T>, what: string): Promise<T> {
    return withTimeout(work, this.timeoutMs, what);
  }
}

/** A keychain write that failed; the message says whether the key kept its earlier value, and never holds a value. */
export class KeychainWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeychainWriteError';
  }
}

// `echo value | secret-tool store …` stores the newline too: a key never means to end with one.
function withoutNewline(found: string): string {
  return found.replace(/\r?\n$/, '');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
