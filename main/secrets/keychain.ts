// The OS keychain through keytar (service `agenvoy`, account = key name), plus secret-tool interop on Linux.
import { createRequire } from 'node:module';
import type * as KeytarModule from 'keytar';
import type { SecretTool } from './secret-tool';
import { SECRET_SERVICE } from './secret-tool';
import { withTimeout } from './with-timeout';

/** keytar's functions, as the store uses them. */
export type Keytar = typeof KeytarModule;

/** Default limit of one keychain call after detection. */
export const KEYCHAIN_TIMEOUT_MS = 5000;

/** Loads keytar's native module; throws when it is not built for this machine. */
export function loadKeytar(): Keytar {
  // createRequire: keytar is CommonJS with a native addon, loaded only when the keychain is first needed.
  return createRequire(import.meta.url)('keytar') as Keytar;
}

/** The keychain with one value per key, seen the same way by keytar and by `secret-tool`. */
export class Keychain {
  constructor(
    private readonly keytar: Keytar,
    /** Present on Linux when secret-tool is installed and answered the probe. */
    private readonly secretTool: SecretTool | null,
    /** Told every value read from the keychain, so it can be redacted. */
    private readonly seen: (key: string, value: string) => void,
    private readonly timeoutMs = KEYCHAIN_TIMEOUT_MS,
  ) {}

  /** The value for `key`, stored by us or (through secret-tool) by another program; null when absent. */
  async get(key: string): Promise<string | null> {
    const ours = await this.bound(this.keytar.getPassword(SECRET_SERVICE, key), 'keychain read');
    const found = ours ?? (this.secretTool ? await this.secretTool.lookup(key) : null);
    if (found === null) return null;
    // `echo value | secret-tool store …` stores the newline too, and some libsecret versions let keytar
    // find such foreign items itself: a key never means to end with a newline, whichever path found it.
    const value = found.replace(/\r?\n$/, '');
    this.seen(key, value);
    return value;
  }

  /** Stores `value` as the one item for `key`, replacing older ones whoever stored them. */
  async set(key: string, value: string): Promise<void> {
    // keytar replaces only items carrying its schema marker: clear foreign ones first so one key has one value.
    if (this.secretTool) await this.secretTool.clear(key);
    await this.bound(this.keytar.setPassword(SECRET_SERVICE, key, value), 'keychain write');
    this.seen(key, value);
  }

  /** Removes every item for `key`; true when there was one. */
  async delete(key: string): Promise<boolean> {
    const ours = await this.bound(this.keytar.deletePassword(SECRET_SERVICE, key), 'keychain delete');
    const foreign = this.secretTool ? await this.secretTool.clear(key) : false;
    return ours || foreign;
  }

  /** Key names stored under service `agenvoy`, ours and other programs'. */
  async keys(): Promise<string[]> {
    const credentials = await this.bound(this.keytar.findCredentials(SECRET_SERVICE), 'keychain list');
    const names = new Set<string>();
    for (const { account, password } of credentials) {
      this.seen(account, password);
      names.add(account);
    }
    if (this.secretTool) for (const account of await this.secretTool.accounts()) names.add(account);
    return [...names];
  }

  private bound<T>(work: Promise<T>, what: string): Promise<T> {
    return withTimeout(work, this.timeoutMs, what);
  }
}
